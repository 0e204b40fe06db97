package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.EngineTestSupport;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A partitioned queue's job events: each partition writes the stream of its own slot, and
 * one listener of the queue hears every partition, one event at a time, in order per job.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "CLUSTER" })
class PartitionedEventStreamTests extends EngineTestSupport {

	private static final int PARTITIONS = 4;

	private static final int JOBS = 100;

	private final List<JobEventStreamContainer> containers = new ArrayList<>();

	@AfterEach
	void stopContainers() {
		this.containers.forEach(JobEventStreamContainer::stop);
	}

	@Test
	void aListenerOfAPartitionedQueueShouldHearEveryPartitionInOrderPerJob() {
		QueuePartitions partitions = QueuePartitions.of(this.queue, PARTITIONS);
		partitions.names().forEach((name) -> this.jobs.events().enable(name, 100_000));
		Heard heard = new Heard(this.queue);
		JobEventStreamContainer container = new JobEventStreamContainer(this.redis, this.jobs.events()::key,
				List.of(heard), new JobEventStreamCounters() {
				});
		container.setPartitions((queue) -> queue.equals(this.queue) ? partitions.names() : List.of(queue));
		container.start();
		this.containers.add(container);
		assertThat(container.getReaders()).hasSize(PARTITIONS);

		List<JobId> ids = new ArrayList<>();
		for (String name : partitions.names()) {
			ids.addAll(runJobs(name));
			String key = this.jobs.events().key(name);
			assertThat(key).contains("{" + name + "}");
			assertThat(this.redis.opsForStream().size(key)).isEqualTo(3L * JOBS);
		}
		assertThat(this.redis.hasKey(this.jobs.events().key(this.queue))).isFalse();

		await().atMost(Duration.ofSeconds(30)).until(() -> heard.events.size() == 3 * JOBS * PARTITIONS);
		Map<String, List<JobEventType>> perJob = new LinkedHashMap<>();
		heard.events
			.forEach((event) -> perJob.computeIfAbsent(event.id(), (id) -> new ArrayList<>()).add(event.type()));
		for (JobId id : ids) {
			assertThat(perJob.get(id.toString())).containsExactly(JobEventType.ADDED, JobEventType.CLAIMED,
					JobEventType.COMPLETED);
		}
		assertThat(heard.events).allMatch((event) -> event.queue().equals(this.queue));
		assertThat(heard.maxConcurrent.get()).isOne();
	}

	private List<JobId> runJobs(String partition) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < JOBS; i++) {
			payloads.add("p" + i);
		}
		List<JobId> ids = this.jobs.enqueues().enqueueAll(partition, payloads, EnqueueSpec.defaults());
		int done = 0;
		while (done < JOBS) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(partition, LEASE, 64);
			List<JobId> batch = claimed.stream().map(ClaimedJob::id).toList();
			List<FencingToken> tokens = claimed.stream().map(ClaimedJob::token).toList();
			this.jobs.outcomes().completeAll(partition, batch, tokens);
			done += claimed.size();
		}
		return ids;
	}

	private static final class Heard implements JobEventStreamListener {

		private final String queue;

		final List<JobEvent> events = new CopyOnWriteArrayList<>();

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger maxConcurrent = new AtomicInteger();

		Heard(String queue) {
			this.queue = queue;
		}

		@Override
		public String queue() {
			return this.queue;
		}

		@Override
		public String id() {
			return "partitioned-audit";
		}

		@Override
		public void onEvent(JobEvent event) {
			int now = this.inside.incrementAndGet();
			this.maxConcurrent.accumulateAndGet(now, Math::max);
			this.events.add(event);
			this.inside.decrementAndGet();
		}

	}

}
