package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.inspect.QueueAuditor;
import io.echomq.support.JacksonPayloadConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Job results: written by the completing scripts ({@code complete}, {@code complete_all})
 * in the same move as the completion, fenced like it, on the row of a retained job or in
 * a key of its own with a TTL, and read back typed through the template.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class ResultsTests extends EngineTestSupport {

	@Test
	void completeWithoutRetentionShouldStoreTheResultInItsKeyWithTheQueueTtl() {
		this.jobs.results().ttl(this.queue, Duration.ofSeconds(90));
		ClaimedJob job = claimOne();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "{\"n\":42}").isApplied())
			.isTrue();
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, job.id()))).isFalse();
		String key = this.keyspace.resultKey(this.queue, job.id());
		assertThat(this.redis.opsForValue().get(key)).isEqualTo("{\"n\":42}");
		assertThat(this.redis.getExpire(key)).isBetween(80L, 90L);
		assertThat(this.jobs.results().read(this.queue, job.id())).isEqualTo("{\"n\":42}");
		assertThat(template().result(this.queue, job.id(), Answer.class)).isEqualTo(new Answer(42));
	}

	@Test
	void retainedCompleteShouldKeepTheResultOnTheRowInTheSameMove() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		ClaimedJob job = claimOne();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token(), null, "\"done\"").isApplied())
			.isTrue();
		Map<Object, Object> row = this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, job.id()));
		assertThat(row).containsEntry("state", "completed").containsEntry("result", "\"done\"");
		assertThat(this.redis.hasKey(this.keyspace.resultKey(this.queue, job.id()))).isFalse();
		assertThat(template().result(this.queue, job.id(), String.class)).isEqualTo("done");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations()).isEmpty();
	}

	@Test
	void aVoidCompletionShouldStoreNothing() {
		ClaimedJob job = claimOne();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		assertThat(this.redis.hasKey(this.keyspace.resultKey(this.queue, job.id()))).isFalse();
		assertThat(template().result(this.queue, job.id(), String.class)).isNull();
	}

	@Test
	void completeAllShouldStoreTheResultOfEachJobThatHasOne() {
		for (int i = 0; i < 3; i++) {
			this.jobs.enqueues().enqueue(this.queue, "p" + i, EnqueueSpec.defaults());
		}
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 3);
		assertThat(claimed).hasSize(3);
		List<JobId> ids = claimed.stream().map(ClaimedJob::id).toList();
		List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
		List<String> results = new ArrayList<>();
		results.add("\"first\"");
		results.add(null);
		results.add("\"third\"");
		List<TransitionResult> outcomes = this.jobs.outcomes()
			.completeAll(this.queue, ids, tokens, Collections.nCopies(3, null), results);
		assertThat(outcomes).allSatisfy((outcome) -> assertThat(outcome.isApplied()).isTrue());
		assertThat(template().result(this.queue, ids.get(0), String.class)).isEqualTo("first");
		assertThat(this.redis.hasKey(this.keyspace.resultKey(this.queue, ids.get(1)))).isFalse();
		assertThat(template().result(this.queue, ids.get(2), String.class)).isEqualTo("third");
		assertThat(this.redis.getExpire(this.keyspace.resultKey(this.queue, ids.get(2)))).isPositive();
	}

	@Test
	void aStaleWorkerShouldWriteNoResultAndTheWinnersResultIsStored() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		ClaimedJob first = this.jobs.claims().claim(this.queue, Duration.ofMillis(50), 1).get(0);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		ClaimedJob second = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(second.id()).isEqualTo(first.id());
		TransitionResult stale = this.jobs.outcomes()
			.complete(this.queue, first.id(), first.token(), null, "\"stale\"");
		assertThat(stale.reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		List<TransitionResult> staleBatch = this.jobs.outcomes()
			.completeAll(this.queue, List.of(first.id()), List.of(first.token()), Collections.nCopies(1, null),
					List.of("\"stale\""));
		assertThat(staleBatch.get(0).reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(this.redis.hasKey(this.keyspace.resultKey(this.queue, first.id()))).isFalse();
		assertThat(
				this.jobs.outcomes().complete(this.queue, second.id(), second.token(), null, "\"winner\"").isApplied())
			.isTrue();
		assertThat(template().result(this.queue, first.id(), String.class)).isEqualTo("winner");
	}

	@Test
	void aResultOverTheCapShouldBeRefusedNamingItsSize() {
		this.jobs.results().maxBytes(8);
		JobId id = JobId.mint();
		assertThatExceptionOfType(ResultTooLargeException.class)
			.isThrownBy(() -> this.jobs.results().check(this.queue, id, "\"0123456789\""))
			.withMessageContaining("is 12 bytes")
			.withMessageContaining("echomq.results.max-size (8 bytes)")
			.withMessageContaining(id.toString());
		this.jobs.results().check(this.queue, id, "\"é\"");
	}

	private ClaimedJob claimOne() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		return this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
	}

	private EchoMqTemplate template() {
		return new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024,
				(queue) -> 3, List.of());
	}

	record Answer(int n) {

	}

}
