package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.autoconfigure.EchoJobListenerContainerFactoryConfigurer;
import io.echomq.autoconfigure.EchoMqProperties;
import io.echomq.autoconfigure.EchoMqQueueProperties;
import io.echomq.core.FlowLimits;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests of how {@link EchoJobListenerContainerFactory} resolves settings; nothing here
 * talks to Redis.
 *
 * @author EchoMQ
 */
class EchoJobListenerContainerFactoryTests {

	// never connected: resolving settings touches no server
	private final LettuceConnectionFactory connectionFactory = new LettuceConnectionFactory(
			new RedisStandaloneConfiguration("127.0.0.1", 1));

	private final EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(
			new Engine(new ScriptExecutor(new StringRedisTemplate(this.connectionFactory)), Keyspace.defaults()));

	@AfterEach
	void destroy() {
		this.factory.destroy();
	}

	@Test
	void defaultsComeFromListenerProperties() {
		ContainerSettings settings = this.factory.resolveSettings("mail", ListenerSettings.inherit());
		assertThat(settings.id()).isEqualTo("mail");
		assertThat(settings.concurrency()).isEqualTo(4);
		assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(30));
		assertThat(settings.maxAttempts()).isNull();
		assertThat(settings.autoStartup()).isTrue();
		assertThat(settings.idleWait()).isEqualTo(Duration.ofSeconds(10));
		assertThat(settings.shutdownTimeout()).isEqualTo(Duration.ofSeconds(10));
		assertThat(settings.backoff())
			.isEqualTo(new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2));
	}

	@Test
	void explicitSettingsWinOverQueuePropertiesWhichWinOverListenerDefaults() {
		configure(
				new EchoMqProperties.Listener(8, Duration.ofSeconds(60), 5,
						new EchoMqProperties.Backoff(Duration.ofSeconds(2), 3.0, Duration.ofMinutes(1), 0.1), true,
						Duration.ofMillis(500), null, null, null, false),
				Map.of("mail",
						overrides(6, Duration.ofSeconds(20), 7, new EchoMqQueueProperties.BackoffOverrides(
								Duration.ofSeconds(3), 1.5, Duration.ofSeconds(30), 0.0), false)),
				Duration.ofSeconds(3));
		ContainerSettings queueLevel = this.factory.resolveSettings("mail", ListenerSettings.inherit());
		assertThat(queueLevel.concurrency()).isEqualTo(6);
		assertThat(queueLevel.lease()).isEqualTo(Duration.ofSeconds(20));
		assertThat(queueLevel.autoStartup()).isFalse();
		assertThat(queueLevel.maxAttempts()).as("properties never cap listeners").isNull();
		assertThat(queueLevel.backoff().initial()).isEqualTo(Duration.ofSeconds(3));
		assertThat(queueLevel.idleWait()).isEqualTo(Duration.ofMillis(500));
		assertThat(queueLevel.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
		ContainerSettings explicit = this.factory.resolveSettings("mail",
				ListenerSettings.builder()
					.id("mailer")
					.concurrency(1)
					.lease(Duration.ofSeconds(5))
					.maxAttempts(2)
					.backoffMultiplier(4.0)
					.autoStartup(true)
					.build());
		assertThat(explicit.id()).isEqualTo("mailer");
		assertThat(explicit.concurrency()).isEqualTo(1);
		assertThat(explicit.lease()).isEqualTo(Duration.ofSeconds(5));
		assertThat(explicit.maxAttempts()).isEqualTo(2);
		assertThat(explicit.autoStartup()).isTrue();
		assertThat(explicit.backoff())
			.isEqualTo(new BackoffPolicy(Duration.ofSeconds(3), 4.0, Duration.ofSeconds(30), 0.0));
		ContainerSettings otherQueue = this.factory.resolveSettings("other", ListenerSettings.inherit());
		assertThat(otherQueue.concurrency()).isEqualTo(8);
		assertThat(otherQueue.backoff().multiplier()).isEqualTo(3.0);
	}

	@Test
	void queueBackoffOverridesShouldInheritUnsetValues() {
		configure(
				new EchoMqProperties.Listener(8, Duration.ofSeconds(60), 5,
						new EchoMqProperties.Backoff(Duration.ofSeconds(2), 3.0, Duration.ofMinutes(1), 0.1), true,
						Duration.ofMillis(500), null, null, null, false),
				Map.of("mail", overrides(null, null, null,
						new EchoMqQueueProperties.BackoffOverrides(null, 1.5, null, null), null)),
				Duration.ofSeconds(10));
		ContainerSettings settings = this.factory.resolveSettings("mail", ListenerSettings.inherit());
		assertThat(settings.backoff())
			.isEqualTo(new BackoffPolicy(Duration.ofSeconds(2), 1.5, Duration.ofMinutes(1), 0.1));
	}

	@Test
	void aListenerClaimsAsManyJobsAheadAsItsConcurrencyUnlessSetAndNoneOnAQueueWithFlowLimits() {
		assertThat(this.factory.resolveSettings("mail", ListenerSettings.builder().concurrency(6).build()).claimAhead())
			.isEqualTo(6);
		configure(new EchoMqProperties.Listener(8, Duration.ofSeconds(60), 5,
				new EchoMqProperties.Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2), true,
				Duration.ofMillis(500), null, null, null, false, 3), Map.of(), Duration.ofSeconds(3));
		this.factory.setQueueLimits(Map.of("capped", new FlowLimits(2, null)));
		assertThat(this.factory.resolveSettings("mail", ListenerSettings.inherit()).claimAhead()).isEqualTo(3);
		assertThat(this.factory.resolveSettings("capped", ListenerSettings.inherit()).claimAhead()).isZero();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new EchoMqProperties.Listener(8, Duration.ofSeconds(60), 5,
					new EchoMqProperties.Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2), true,
					Duration.ofMillis(500), null, null, null, false, -1))
			.withMessageContaining("echomq.listener.claim-ahead");
	}

	@Test
	void invalidSettingsAreRejected() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.factory.resolveSettings("mail", ListenerSettings.builder().concurrency(0).build()))
			.withMessageContaining("concurrency");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.factory.resolveSettings("{mail}", ListenerSettings.inherit()));
	}

	private static EchoMqQueueProperties overrides(Integer concurrency, Duration lease, Integer maxAttempts,
			EchoMqQueueProperties.BackoffOverrides backoff, Boolean autoStartup) {
		return new EchoMqQueueProperties(concurrency, lease, maxAttempts, backoff, autoStartup, null, null, null, null,
				null, null, null, null, null, null, null, null, null);
	}

	private void configure(EchoMqProperties.Listener listener, Map<String, EchoMqQueueProperties> queues,
			Duration shutdownTimeout) {
		EchoMqProperties defaults = EchoMqProperties.defaults();
		EchoMqProperties properties = new EchoMqProperties(true, "emq", defaults.maxPayloadSize(), listener,
				defaults.maintenance(), new EchoMqProperties.Shutdown(shutdownTimeout), queues, defaults.template(),
				defaults.schedules(), defaults.schedule());
		new EchoJobListenerContainerFactoryConfigurer(properties, JobExecutorFactory.platformThreads(), List.of())
			.configure(this.factory);
	}

}
