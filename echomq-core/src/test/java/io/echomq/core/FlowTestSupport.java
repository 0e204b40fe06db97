package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.inspect.QueueAuditor;
import io.echomq.support.JacksonPayloadConverter;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the flow and batch test classes share: a template over the test's engine, and the
 * steps a test drives a flow's jobs through (claim and complete, claim and dead-letter,
 * relay, read a row, wait for its state, audit).
 *
 * @author EchoMQ
 */
abstract class FlowTestSupport extends EngineTestSupport {

	/** Claim the next job of a queue and complete it. */
	void complete(String queue) {
		ClaimedJob job = this.jobs.claims().claim(queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().complete(queue, job.id(), job.token()).isApplied()).isTrue();
	}

	/** Claim the next job of a queue and fail it on its last attempt. */
	void die(String queue) {
		ClaimedJob job = this.jobs.claims().claim(queue, LEASE, 1).get(0);
		TransitionResult result = this.jobs.outcomes().retry(queue, job.id(), job.token(), "boom", Duration.ZERO);
		assertThat(result.state()).isEqualTo(JobState.DEAD);
	}

	/** Relay the outboxes of the queues a few times over, as nodes would. */
	void relay(String... queues) {
		for (int pass = 0; pass < 4; pass++) {
			for (String queue : queues) {
				this.jobs.flows().relay(queue, 100);
			}
		}
	}

	Map<Object, Object> row(String queue, JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(queue, id));
	}

	/** Claim what this queue has to run, and find exactly these jobs, in this order. */
	void assertClaims(JobId... ids) {
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).extracting(ClaimedJob::id).containsExactly(ids);
	}

	/** Wait until a job's row says it is in the state. */
	void awaitState(String queue, JobId id, String state, Duration atMost) {
		await().atMost(atMost).untilAsserted(() -> assertThat(row(queue, id)).containsEntry("state", state));
	}

	/** Audit each queue, in order, and find nothing wrong. */
	void assertClean(String... queues) {
		for (String queue : queues) {
			assertThat(new QueueAuditor(this.jobs).audit(queue, Duration.ofSeconds(5)).violations()).as(queue)
				.isEmpty();
		}
	}

	EchoMqTemplate template() {
		return new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024,
				(queue) -> 3, List.of());
	}

}
