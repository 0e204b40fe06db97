package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;

import static io.echomq.core.EventStreamEntries.entryOf;
import static io.echomq.core.EventStreamEntries.typesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Job expiry: a job not claimed by its deadline never runs; the claim or the promotion
 * that reaches it moves it to dead with the reason {@code expired}, in the same move
 * (expire.lua).
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class ExpiryTests extends FlowTestSupport {

	@Test
	void anExpiredPendingJobShouldNeverBeClaimedAndEndDeadAsExpired() {
		this.jobs.events().enable(this.queue, 1000);
		EchoMqTemplate template = template();
		this.jobs.enqueues().setDefaultExpiry(this.queue, Duration.ofMillis(50));
		JobId expiring = template.enqueue(this.queue, "late");
		JobId inLane = template.enqueue(this.queue, "lane", EnqueueOptions.defaults().withLane("t1"));
		JobId kept = template.enqueue(this.queue, "kept", EnqueueOptions.defaults().withExpiry(Duration.ofHours(1)));
		long deadline = Long.parseLong((String) row(this.queue, expiring).get(RowFields.EXPIRES_AT));
		assertThat(row(this.queue, expiring)).doesNotContainKey("expire_in");
		awaitServerTimePast(Long.parseLong((String) row(this.queue, inLane).get(RowFields.EXPIRES_AT)));
		awaitServerTimePast(deadline);

		List<ClaimedJob> claimed = new java.util.ArrayList<>(this.jobs.claims().claim(this.queue, LEASE, 10));
		claimed.addAll(this.jobs.claims().claim(this.queue, LEASE, 10));

		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(kept);
		for (JobId id : List.of(expiring, inLane)) {
			assertThat(row(this.queue, id)).containsEntry("state", "dead")
				.containsEntry(RowFields.DEAD_REASON, "expired")
				.hasEntrySatisfying("last_error", (error) -> assertThat((String) error).startsWith("expired"));
			assertThat(this.redis.opsForZSet().score(this.jobs.keys(this.queue).dead(), id.toString())).isNotNull();
			assertThat(typesOf(EventStreamEntries.read(this.redis, this.jobs.keys(this.queue).events()), id))
				.containsExactly("added", "expired");
		}
		assertThat(
				entryOf(EventStreamEntries.read(this.redis, this.jobs.keys(this.queue).events()), expiring, "expired"))
			.containsEntry("state", "dead");
		QueueStats stats = new QueueInspector(this.jobs).stats(this.queue);
		assertThat(stats.dead()).isEqualTo(2);
		assertThat(stats.pending()).isZero();
		assertThat(stats.counters()).containsEntry("expired", 2L).containsEntry("dead", 2L);
		assertClean(this.queue);
	}

	@Test
	void aDelayedJobPastItsExpiryShouldNeverBePromoted() {
		JobId id = template().enqueue(this.queue, "delayed",
				EnqueueOptions.delayed(Duration.ofMillis(10)).withExpiry(Duration.ofMillis(40)));
		assertThat(row(this.queue, id)).containsEntry("state", "schedule");
		awaitServerTimePast(Long.parseLong((String) row(this.queue, id).get(RowFields.EXPIRES_AT)));

		assertThat(this.jobs.upkeep().promotePass(this.queue, 10).expired()).isOne();

		assertThat(row(this.queue, id)).containsEntry("state", "dead").containsEntry(RowFields.DEAD_REASON, "expired");
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(this.queue).schedule())).isZero();
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(this.queue).pending())).isZero();
		assertClean(this.queue);
	}

	@Test
	void anExpiryThatCouldNeverBeMetShouldBeRefusedWithNothingWritten() {
		EchoMqTemplate template = template();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template.enqueue(this.queue, "past",
					EnqueueOptions.defaults().withExpiresAt(Instant.now().minus(Duration.ofMinutes(1)))))
			.withMessageContaining("expiry")
			.withMessageContaining("not after server time");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template.enqueue(this.queue, "too late",
					EnqueueOptions.delayed(Duration.ofHours(1)).withExpiry(Duration.ofSeconds(1))))
			.withMessageContaining("not after the run-at");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withExpiry(Duration.ZERO))
			.withMessageContaining("expiry must be at least 1ms");
		// the queue's stored format (meta) is recorded at its first use, before the
		// enqueue
		assertThat(this.redis.keys("emq:{" + this.queue + "}:*")).containsOnly(this.jobs.keys(this.queue).meta());
	}

	@Test
	void anExpiredChildShouldFailItsParentUnderTheFlowsPolicy() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "child")
				.options(EnqueueOptions.defaults().withExpiry(Duration.ofMillis(30)))));
		JobId child = flow.children().get(0).id();
		awaitServerTimePast(Long.parseLong((String) row(this.queue, child).get(RowFields.EXPIRES_AT)));

		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).isEmpty();
		relay(this.queue);

		assertThat(row(this.queue, child)).containsEntry("state", "dead")
			.containsEntry(RowFields.DEAD_REASON, "expired");
		assertThat(row(this.queue, flow.id())).containsEntry("state", "dead")
			.containsEntry("child:" + this.queue + "/" + child, "dead");
		assertClean(this.queue);
	}

	@Test
	void aPartitionShouldTakeItsQueuesDefaultExpiry() {
		String partition = QueuePartitions.of(this.queue, 2).name(1);
		this.jobs.enqueues().setDefaultExpiry(this.queue, Duration.ofMillis(30));
		JobId id = this.jobs.enqueues().enqueue(partition, "late", EnqueueSpec.defaults());
		awaitServerTimePast(Long.parseLong((String) row(partition, id).get(RowFields.EXPIRES_AT)));

		assertThat(this.jobs.claims().claim(partition, LEASE, 10)).isEmpty();

		assertThat(row(partition, id)).containsEntry("state", "dead").containsEntry(RowFields.DEAD_REASON, "expired");
		assertClean(partition);
	}

	private void awaitServerTimePast(long deadline) {
		await().atMost(Duration.ofSeconds(5)).until(() -> serverTime() > deadline);
	}

	private long serverTime() {
		Long time = this.redis.execute((RedisCallback<Long>) RedisConnection::time);
		return (time != null) ? time : 0;
	}

}
