package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.QueueAuditor;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerEndpoint;
import io.echomq.listener.QueueListenerContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The stored format of a queue on a real server: a queue written before formats were
 * recorded is adopted as format 1, a format this release does not read is refused at the
 * first enqueue and at a listener's start with both versions named, and a malformed one
 * is refused with nothing written.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class StoredFormatTests extends EngineTestSupport {

	@Test
	void queueWrittenBeforeFormatsWereRecordedIsReadAndAdoptedAsFormatOne() {
		JobId legacy = JobId.mint();
		writeTodaysLayout(legacy, "legacy");
		assertThat(this.redis.hasKey(key(KeyType.META))).isFalse();
		JobId fresh = this.jobs.enqueues().enqueue(this.queue, "fresh", EnqueueSpec.defaults());
		assertThat(this.redis.<String, String>opsForHash().entries(key(KeyType.META)))
			.containsExactly(Map.entry("format", "1"));
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 5);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(legacy, fresh);
		assertThat(claimed.get(0).payload()).isEqualTo("legacy");
		for (ClaimedJob job : claimed) {
			assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		}
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("2");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations()).isEmpty();
	}

	@Test
	void queueInAFormatThisReleaseDoesNotReadIsRefusedAtFirstEnqueueWithNothingWritten() {
		this.redis.opsForHash().put(key(KeyType.META), "format", "99");
		assertThatExceptionOfType(UnsupportedFormatException.class)
			.isThrownBy(() -> this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults()))
			.withMessageContaining("Queue '" + this.queue + "'")
			.withMessageContaining("format 99")
			.withMessageContaining("reads format(s) [1]")
			.withMessageContaining(key(KeyType.META));
		assertThat(this.redis.keys("emq:{" + this.queue + "}:*")).containsExactly(key(KeyType.META));
		assertThat(this.redis.opsForHash().get(key(KeyType.META), "format")).isEqualTo("99");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations())
			.anySatisfy((finding) -> assertThat(finding).contains("'99'"));
	}

	@Test
	void listenerDoesNotStartOnAQueueInAFormatThisReleaseDoesNotRead() {
		this.redis.opsForHash().put(key(KeyType.META), "format", "99");
		EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(this.jobs);
		try {
			QueueListenerContainer container = factory
				.createContainer(EchoJobListenerEndpoint.of(this.queue, (job, context) -> {
				}));
			assertThatExceptionOfType(UnsupportedFormatException.class).isThrownBy(container::start)
				.withMessageContaining("format 99")
				.withMessageContaining("[1]");
			assertThat(container.isRunning()).isFalse();
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void malformedFormatIsRefusedWithNothingWritten() {
		this.redis.opsForHash().put(key(KeyType.META), "format", "one");
		assertThatExceptionOfType(UnsupportedFormatException.class)
			.isThrownBy(() -> this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b"), EnqueueSpec.defaults()))
			.withMessageContaining("Queue '" + this.queue + "'")
			.withMessageContaining("format 'one'")
			.withMessageContaining("not a format")
			.withMessageContaining("[1]");
		assertThat(this.redis.keys("emq:{" + this.queue + "}:*")).containsExactly(key(KeyType.META));
		assertThat(this.redis.opsForHash().get(key(KeyType.META), "format")).isEqualTo("one");
	}

	@Test
	void formatIsCheckedOncePerQueueAndEngineAndAgainByAnotherNode() {
		this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		this.redis.opsForHash().put(key(KeyType.META), "format", "2");
		this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2);
		Engine another = this.engine.newEngine();
		assertThatExceptionOfType(UnsupportedFormatException.class)
			.isThrownBy(() -> another.enqueues().enqueue(this.queue, "c", EnqueueSpec.defaults()))
			.withMessageContaining("format 2");
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2);
	}

	@Test
	void eachPartitionRecordsItsFormatInItsOwnSlot() {
		QueuePartitions partitions = QueuePartitions.of(this.queue, 3);
		for (String partition : partitions.names()) {
			this.jobs.enqueues().enqueue(partition, "x", EnqueueSpec.defaults());
		}
		assertThat(partitions.names()).allSatisfy((partition) -> assertThat(
				this.redis.opsForHash().get(this.keyspace.queueKey(partition, KeyType.META.suffix()), "format"))
			.isEqualTo("1"));
		String second = partitions.names().get(1);
		this.redis.opsForHash().put(this.keyspace.queueKey(second, KeyType.META.suffix()), "format", "99");
		assertThatExceptionOfType(UnsupportedFormatException.class)
			.isThrownBy(() -> this.engine.newEngine().formats().check(second))
			.withMessageContaining("Queue '" + second + "'");
		assertThat(this.engine.newEngine().formats().check(partitions.names().get(0))).isEqualTo(1);
	}

	/**
	 * A pending job as the enqueue of a release without stored formats leaves it: the
	 * row, its id in pending, the counter and a wake token, and no meta hash.
	 */
	private void writeTodaysLayout(JobId id, String payload) {
		this.redis.opsForHash()
			.putAll(this.keyspace.jobKey(this.queue, id), Map.of("state", "pending", "attempts", "0", "max_attempts",
					"3", "enqueued_at", Long.toString(System.currentTimeMillis()), "payload", payload));
		this.redis.opsForZSet().add(key(KeyType.PENDING), id.toString(), 0);
		this.redis.opsForHash().put(key(KeyType.METRICS), "enqueued", "1");
		this.redis.opsForList().rightPush(key(KeyType.WAKE), "1");
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

}
