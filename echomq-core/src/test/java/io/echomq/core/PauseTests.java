package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.QueueAuditor;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The cluster-wide pause flag on a real server: the claim script claims nothing while it
 * is set, a resume wakes pollers, a timed pause ends by itself and never shortens a pause
 * in place.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class PauseTests extends EngineTestSupport {

	@Test
	void pausedQueueClaimsNothingUntilResumed() {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b"), EnqueueSpec.defaults());
		assertThat(this.jobs.admin().pause(this.queue, null, "maintenance")).isTrue();
		assertThat(this.redis.opsForValue().get(key(KeyType.PAUSED))).isEqualTo("maintenance");
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isNull();
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).isEmpty();
		assertThat(this.jobs.claims().lastClaimPause(this.queue)).isNull();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2);
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations()).isEmpty();
		this.redis.delete(key(KeyType.WAKE));
		assertThat(this.jobs.admin().resume(this.queue)).isTrue();
		assertThat(this.redis.hasKey(key(KeyType.PAUSED))).isFalse();
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isEqualTo(16);
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isEqualTo(Duration.ZERO);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).extracting(ClaimedJob::id)
			.containsExactlyElementsOf(ids);
		assertThat(this.jobs.claims().lastClaimPause(this.queue)).isEqualTo(Duration.ZERO);
		assertThat(this.jobs.admin().resume(this.queue)).isFalse();
	}

	@Test
	void timedPauseEndsByItself() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		assertThat(this.jobs.admin().pause(this.queue, Duration.ofMillis(300), "rate limited")).isTrue();
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).isEmpty();
		assertThat(this.jobs.claims().lastClaimPause(this.queue)).isBetween(Duration.ofMillis(1),
				Duration.ofMillis(300));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.jobs.claims()
				.claim(this.queue, LEASE, 1)
				.stream()
				.anyMatch((job) -> job.id().equals(id)));
	}

	@Test
	void timedPauseNeverShortensAPauseInPlace() {
		this.jobs.admin().pause(this.queue, null, "by hand");
		assertThat(this.jobs.admin().pause(this.queue, Duration.ofMillis(50), "rate limited")).isFalse();
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isNull();
		assertThat(this.redis.opsForValue().get(key(KeyType.PAUSED))).isEqualTo("by hand");
		this.jobs.admin().resume(this.queue);
		this.jobs.admin().pause(this.queue, Duration.ofMinutes(10), "long");
		assertThat(this.jobs.admin().pause(this.queue, Duration.ofSeconds(1), "short")).isFalse();
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isGreaterThan(Duration.ofMinutes(9));
		assertThat(this.jobs.admin().pause(this.queue, Duration.ofMinutes(20), "longer")).isTrue();
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isGreaterThan(Duration.ofMinutes(19));
		assertThat(this.jobs.admin().pause(this.queue, null, "by hand")).isTrue();
		assertThat(this.jobs.admin().pauseLeft(this.queue)).isNull();
	}

	@Test
	void badPauseInputFailsBeforeAnyWrite() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.admin().pause(this.queue, Duration.ZERO, "x"))
			.withMessageContaining("PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.admin().pause(this.queue, Duration.ofMillis(-5), "x"));
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.jobs.admin().pause("a:b", null, "x"));
		this.redis.opsForHash().put(key(KeyType.PAUSED), "f", "v");
		assertThatExceptionOfType(WrongKeyTypeException.class)
			.isThrownBy(() -> this.jobs.admin().pause(this.queue, null, "x"))
			.withMessageContaining("paused is a hash, not a string");
		assertThat(this.redis.opsForHash().entries(key(KeyType.PAUSED))).containsOnlyKeys("f");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations())
			.anyMatch((v) -> v.contains("paused is a hash, not a string"));
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

}
