package io.echomq.core;

import java.time.Duration;
import java.util.Collections;
import java.util.Set;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.Backlog;
import io.echomq.inspect.QueueBacklogs;
import io.echomq.inspect.QueueInspector;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The backlog a scaler reads, against a real server: it counts what could start now
 * (pending, lanes, due scheduled; not active, not scheduled for later), on a partitioned
 * queue summed over the partitions, and the gauges publish it.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class BacklogTests extends EngineTestSupport {

	@Test
	void backlogCountsWhatCouldStartNowAndTheGaugesShowIt() {
		long before = this.jobs.serverTime();
		for (int i = 0; i < 3; i++) {
			this.jobs.enqueues().enqueue(this.queue, "plain-" + i, EnqueueSpec.defaults());
		}
		this.jobs.enqueues().enqueue(this.queue, "a-1", EnqueueSpec.defaults().withLane("a"));
		this.jobs.enqueues().enqueue(this.queue, "a-2", EnqueueSpec.defaults().withLane("a"));
		this.jobs.enqueues().enqueue(this.queue, "b-1", EnqueueSpec.defaults().withLane("b"));
		this.jobs.enqueues().enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		this.jobs.enqueues().enqueue(this.queue, "due", EnqueueSpec.defaults().withDelay(Duration.ofMillis(1)));
		this.jobs.enqueues().enqueue(this.queue, "claimed", EnqueueSpec.defaults().withPriority(10));
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::payload)
			.containsExactly("claimed");
		QueueBacklogs backlogs = new QueueBacklogs(this.jobs, new QueueInspector(this.jobs));
		await().atMost(Duration.ofSeconds(5)).until(() -> backlogs.read(this.queue).runnable() == 7);
		Backlog backlog = backlogs.read(this.queue);
		long after = this.jobs.serverTime();
		assertThat(backlog.age().toMillis()).isBetween(0L, after - before);
		assertThat(backlog.completionRate()).isZero();
		assertThat(backlog.estimatedSeconds()).isNaN();
		long lastMinute = after / 60_000 - 1;
		this.redis.opsForHash()
			.increment(this.keyspace.queueKey(this.queue, KeyType.MINUTES.suffix()), lastMinute + ":completed", 600);
		backlog = backlogs.read(this.queue);
		assertThat(backlog.completionRate()).isCloseTo(600 / (QueueBacklogs.RATE_MINUTES * 60.0), within(1e-9));
		assertThat(backlog.estimatedSeconds()).isCloseTo(7 / 2.0, within(1e-9));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		EchoMqQueueMetrics metrics = new EchoMqQueueMetrics(new QueueInspector(this.jobs),
				new EchoMqQueueCatalog(Set::of, Set.of(this.queue)), null, Duration.ofMinutes(1));
		metrics.setBacklogs(backlogs);
		metrics.bindTo(registry);
		metrics.sample();
		assertThat(registry.get("echomq.queue.backlog").tag("queue", this.queue).gauge().value()).isEqualTo(7.0);
		assertThat(registry.get("echomq.queue.backlog.drain.time").tag("queue", this.queue).gauge().value())
			.isCloseTo(3.5, within(1e-9));
		assertThat(registry.get("echomq.queue.backlog.age").tag("queue", this.queue).gauge().value()).isBetween(0.0,
				(this.jobs.serverTime() - before) / 1000.0);
	}

	@Test
	void emptyQueueHasNoBacklogAndNoAge() {
		Backlog backlog = new QueueBacklogs(this.jobs, new QueueInspector(this.jobs)).read(this.queue);
		assertThat(backlog.runnable()).isZero();
		assertThat(backlog.age()).isZero();
		assertThat(backlog.estimatedSeconds()).isZero();
	}

	@Test
	void partitionedQueueBacklogIsTheSumOfItsPartitions() {
		QueuePartitions partitions = QueuePartitions.of(this.queue, 3);
		int expected = 0;
		for (int i = 0; i < partitions.names().size(); i++) {
			String partition = partitions.names().get(i);
			this.jobs.enqueues().enqueueAll(partition, Collections.nCopies(i + 1, "p"), EnqueueSpec.defaults());
			expected += i + 1;
		}
		this.jobs.enqueues()
			.enqueue(partitions.names().get(0), "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		Backlog backlog = new QueueBacklogs(this.jobs, new QueueInspector(this.jobs)).read(partitions);
		assertThat(backlog.queue()).isEqualTo(this.queue);
		assertThat(backlog.runnable()).isEqualTo(expected);
		assertThat(backlog.age().isNegative()).isFalse();
	}

}
