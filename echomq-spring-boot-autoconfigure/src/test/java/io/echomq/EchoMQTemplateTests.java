package io.echomq;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.PayloadTooLargeException;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.support.PayloadConversionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link EchoMqTemplate} on a real server.
 *
 * @author EchoMQ
 */
class EchoMqTemplateTests {

	@RegisterExtension
	final EngineConnection engine = EngineConnection.toSharedServer("t-");

	private EchoMqTemplate template;

	@BeforeEach
	void setUp() {
		this.template = this.engine.template(1024, 4, List.of((queue, fields) -> Map.of("origin", "test")));
	}

	@Test
	void enqueueShouldWriteJsonPayloadAndDefaults() {
		JobId id = this.template.enqueue(this.engine.queue(), new Greeting("hi", 3));
		ClaimedJob job = this.engine.jobs().claims().claim(this.engine.queue(), Duration.ofSeconds(30), 1).get(0);
		assertThat(job.id()).isEqualTo(id);
		assertThat(job.payload()).isEqualTo("{\"text\":\"hi\",\"times\":3}");
		assertThat(job.maxAttempts()).isEqualTo(4);
		assertThat(job.fields()).containsEntry("origin", "test");
	}

	@Test
	void enqueueWithOptionsShouldApplyThem() {
		JobId delayed = this.template.enqueue(this.engine.queue(), "later",
				EnqueueOptions.delayed(Duration.ofMinutes(1)));
		JobId at = this.template.enqueue(this.engine.queue(), "at",
				EnqueueOptions.defaults().withRunAt(Instant.now().plusSeconds(3600)).withMaxAttempts(9));
		JobId urgent = this.template.enqueue(this.engine.queue(), "urgent", EnqueueOptions.defaults().withPriority(10));
		String schedule = Keyspace.defaults().queueKey(this.engine.queue(), KeyType.SCHEDULE.suffix());
		assertThat(this.engine.redis().opsForZSet().range(schedule, 0, -1)).containsExactly(delayed.toString(),
				at.toString());
		assertThat(this.engine.redis()
			.opsForHash()
			.get(Keyspace.defaults().jobKey(this.engine.queue(), at), "max_attempts")).isEqualTo("9");
		assertThat(this.engine.redis()
			.opsForZSet()
			.score(Keyspace.defaults().queueKey(this.engine.queue(), KeyType.PENDING.suffix()), urgent.toString()))
			.isEqualTo(-10.0);
	}

	@Test
	void enqueueAllShouldReturnIdsInOrder() {
		List<JobId> ids = this.template.enqueueAll(this.engine.queue(), List.of(1, 2, 3));
		assertThat(ids).hasSize(3).isSorted();
		assertThat(this.engine.jobs().claims().claim(this.engine.queue(), Duration.ofSeconds(30), 3))
			.extracting(ClaimedJob::payload)
			.containsExactly("1", "2", "3");
		assertThat(this.template.enqueueAll(this.engine.queue(), List.of())).isEmpty();
	}

	@Test
	void oversizedPayloadShouldBeRejectedBeforeAnyWrite() {
		assertThatExceptionOfType(PayloadTooLargeException.class)
			.isThrownBy(() -> this.template.enqueueAll(this.engine.queue(), List.of("ok", "x".repeat(2000))))
			.withMessageContaining("'" + this.engine.queue() + "'")
			.withMessageContaining("echomq.max-payload-size (1024 bytes)");
		assertThat(
				this.engine.redis().hasKey(Keyspace.defaults().queueKey(this.engine.queue(), KeyType.PENDING.suffix())))
			.isFalse();
	}

	@Test
	void unserializablePayloadShouldBeRejectedBeforeAnyWrite() {
		assertThatExceptionOfType(PayloadConversionException.class)
			.isThrownBy(() -> this.template.enqueueAll(this.engine.queue(), List.of("fine", new Unserializable())))
			.withMessageContaining(Unserializable.class.getName());
		assertThat(
				this.engine.redis().hasKey(Keyspace.defaults().queueKey(this.engine.queue(), KeyType.PENDING.suffix())))
			.isFalse();
	}

	@Test
	void badQueueAndNullPayloadShouldBeRejected() {
		assertThatExceptionOfType(io.echomq.core.InvalidQueueNameException.class)
			.isThrownBy(() -> this.template.enqueue("no spaces", "x"))
			.withMessageContaining("'no spaces'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueueAll(this.engine.queue(), java.util.Arrays.asList((Object) null)))
			.withMessageContaining("must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withMaxAttempts(0))
			.withMessageContaining("maxAttempts");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.delayed(Duration.ofSeconds(-1)))
			.withMessageContaining("delay");
	}

	@Test
	void nullPayloadShouldBeRejectedByNameBeforeAnyWrite() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.enqueue(this.engine.queue(), null))
			.withMessage("Payload for queue '" + this.engine.queue() + "' must not be null");
		assertThatIllegalArgumentException().isThrownBy(
				() -> this.template.enqueue(this.engine.queue(), null, EnqueueOptions.delayed(Duration.ofMinutes(1))))
			.withMessage("Payload for queue '" + this.engine.queue() + "' must not be null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueueAll(this.engine.queue(), Arrays.asList("a", null, "c")))
			.withMessage("Payload 2 of 3 for queue '" + this.engine.queue() + "' must not be null");
		assertThat(queueKeys()).isEmpty();
	}

	@Test
	void runAtOrDelayBeyondTheSupportedRangeShouldBeRejectedByValueBeforeAnyWrite() {
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withRunAt(Instant.MAX))
			.withMessage("runAt must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, was " + Instant.MAX);
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withRunAt(Instant.MIN))
			.withMessageContaining("runAt must be from")
			.withMessageEndingWith("was " + Instant.MIN);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().withRunAt(EnqueueSpec.LATEST_RUN_AT.plusMillis(1)))
			.withMessageEndingWith("was +10000-01-01T00:00:00Z");
		Duration forever = ChronoUnit.FOREVER.getDuration();
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.delayed(forever))
			.withMessage("delay must be at most " + EnqueueSpec.MAX_DELAY
					+ " (to run by 9999-12-31T23:59:59.999Z), was " + forever);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().withDelay(Duration.ofSeconds(Long.MAX_VALUE / 1000)))
			.withMessageContaining("delay must be at most");
		// the engine's own spec checks the same, for callers of Engine
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueSpec.defaults().withRunAt(Instant.MAX))
			.withMessageContaining("runAt must be from");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueSpec.defaults().withDelay(forever))
			.withMessageContaining("delay must be at most");
		assertThat(queueKeys()).isEmpty();
	}

	@Test
	void latestRunAtAndLongestDelayShouldBeKeptExactly() {
		JobId latest = this.template.enqueue(this.engine.queue(), "late",
				EnqueueOptions.defaults().withRunAt(EnqueueSpec.LATEST_RUN_AT));
		JobId longest = this.template.enqueue(this.engine.queue(), "long",
				EnqueueOptions.delayed(EnqueueSpec.MAX_DELAY));
		String schedule = Keyspace.defaults().queueKey(this.engine.queue(), KeyType.SCHEDULE.suffix());
		assertThat(this.engine.redis().opsForZSet().score(schedule, latest.toString()))
			.isEqualTo((double) EnqueueSpec.LATEST_RUN_AT.toEpochMilli());
		assertThat(
				this.engine.redis().opsForHash().get(Keyspace.defaults().jobKey(this.engine.queue(), latest), "run_at"))
			.isEqualTo(Long.toString(EnqueueSpec.LATEST_RUN_AT.toEpochMilli()));
		Object runAt = this.engine.redis()
			.opsForHash()
			.get(Keyspace.defaults().jobKey(this.engine.queue(), longest), "run_at");
		assertThat(runAt).asString().containsOnlyDigits();
		assertThat(Long.parseLong((String) runAt))
			.isGreaterThan(EnqueueSpec.MAX_DELAY.toMillis() + Instant.now().minusSeconds(60).toEpochMilli());
	}

	private Set<String> queueKeys() {
		Set<String> keys = this.engine.redis().keys("*{" + this.engine.queue() + "}*");
		return (keys != null) ? keys : Set.of();
	}

	record Greeting(String text, int times) {

	}

	static class Unserializable {

		public String getValue() {
			throw new IllegalStateException("cannot be read");
		}

	}

}
