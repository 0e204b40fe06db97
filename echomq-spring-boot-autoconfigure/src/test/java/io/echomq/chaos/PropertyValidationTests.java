package io.echomq.chaos;

import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.autoconfigure.EchoMqProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Out-of-range or unreadable {@code echomq.*} values fail start-up with a message that
 * names the property. Lettuce connects lazily, so no server is needed.
 *
 * @author EchoMQ
 */
@Timeout(60)
class PropertyValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("echomq.listener.auto-startup=false")
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
				EchoMqAutoConfiguration.class));

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			echomq.maintenance.reap-interval          | 0s    | echomq.maintenance.reap-interval
			echomq.maintenance.reap-interval          | -1s   | echomq.maintenance.reap-interval
			echomq.maintenance.promote-interval       | 0ms   | echomq.maintenance.promote-interval
			echomq.maintenance.batch-size             | 0     | echomq.maintenance.batch-size
			echomq.maintenance.batch-size             | -5    | echomq.maintenance.batch-size
			echomq.listener.concurrency             | 0     | echomq.listener.concurrency
			echomq.listener.concurrency             | -1    | echomq.listener.concurrency
			echomq.listener.lease                   | -30s  | echomq.listener.lease
			echomq.listener.max-attempts            | 0     | echomq.listener.max-attempts
			echomq.listener.max-attempts            | -3    | echomq.listener.max-attempts
			echomq.listener.idle-wait               | 0s    | echomq.listener.idle-wait
			echomq.listener.backoff.initial         | -1s   | echomq.listener.backoff.initial
			echomq.listener.backoff.max             | -1m   | echomq.listener.backoff.max
			echomq.listener.backoff.multiplier      | 0.5   | echomq.listener.backoff.multiplier
			echomq.listener.backoff.multiplier      | -2    | echomq.listener.backoff.multiplier
			echomq.listener.backoff.multiplier      | NaN   | echomq.listener.backoff.multiplier
			echomq.listener.backoff.jitter          | 1.5   | echomq.listener.backoff.jitter
			echomq.listener.backoff.jitter          | -0.1  | echomq.listener.backoff.jitter
			echomq.shutdown.timeout                 | -1s   | echomq.shutdown.timeout
			echomq.max-payload-size                 | 0B    | echomq.max-payload-size
			echomq.queues.mail.concurrency          | 0     | echomq.queues.*.concurrency
			echomq.queues.mail.lease                | 0s    | echomq.queues.*.lease
			echomq.queues.mail.max-attempts         | -1    | echomq.queues.*.max-attempts
			echomq.queues.mail.backoff.multiplier   | 0.9   | echomq.queues.*.backoff.multiplier
			echomq.queues.mail.backoff.jitter       | 2     | echomq.queues.*.backoff.jitter
			echomq.queues.mail.backoff.initial      | -5s   | echomq.queues.*.backoff.initial
			echomq.queues.mail.max-active           | 0     | echomq.queues.*.max-active
			echomq.queues.mail.max-active           | -2    | echomq.queues.*.max-active
			echomq.queues.mail.rate-limit.limit     | 0     | echomq.queues.*.rate-limit.limit
			echomq.queues.mail.rate-limit.limit     | -10   | echomq.queues.*.rate-limit.limit
			echomq.queues.mail.lanes.max-active     | 0     | echomq.queues.*.lanes.max-active
			echomq.queues.mail.lanes.rate-limit.limit | 0   | .lanes.rate-limit.limit
			""")
	void outOfRangeValueFailsStartUpNamingTheProperty(String property, String value, String named) {
		this.contextRunner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(named);
		});
	}

	@ParameterizedTest(name = "period={0}")
	@CsvSource({ "0s", "-1s", "0ms" })
	void nonPositiveRateLimitPeriodFailsStartUpNamingTheProperty(String period) {
		this.contextRunner
			.withPropertyValues("echomq.queues.mail.rate-limit.limit=5",
					"echomq.queues.mail.rate-limit.period=" + period)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("echomq.queues.*.rate-limit.period");
			});
	}

	@Test
	void flowLimitsReachTheContainerFactory() {
		this.contextRunner
			.withPropertyValues("echomq.queues.mail.max-active=7", "echomq.queues.mail.rate-limit.limit=500",
					"echomq.queues.mail.lanes.max-active=1", "echomq.queues.mail.lanes.rate-limit.limit=3",
					"echomq.queues.mail.lanes.rate-limit.period=2s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				io.echomq.core.FlowLimits limits = context
					.getBean(io.echomq.listener.EchoJobListenerContainerFactory.class)
					.getQueueLimits("mail");
				assertThat(limits.maxActive()).isEqualTo(7);
				assertThat(limits.rateLimit())
					.isEqualTo(new io.echomq.core.FlowLimits.RateLimit(500, java.time.Duration.ofSeconds(1)));
				assertThat(limits.laneMaxActive()).isEqualTo(1);
				assertThat(limits.laneRateLimit())
					.isEqualTo(new io.echomq.core.FlowLimits.RateLimit(3, java.time.Duration.ofSeconds(2)));
			});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			echomq.listener.lease                   | soon
			echomq.maintenance.batch-size             | many
			echomq.listener.backoff.multiplier      | double
			echomq.shutdown.timeout                 | 10 parsecs
			""")
	void unreadableValueFailsStartUpNamingTheProperty(String property, String value) {
		this.contextRunner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(property);
		});
	}

	@Test
	void boundaryValuesAreAccepted() {
		this.contextRunner
			.withPropertyValues("echomq.maintenance.reap-interval=1ms", "echomq.maintenance.batch-size=1",
					"echomq.listener.concurrency=1", "echomq.listener.max-attempts=1",
					"echomq.listener.backoff.multiplier=1.0", "echomq.listener.backoff.jitter=0",
					"echomq.listener.backoff.initial=0s", "echomq.shutdown.timeout=0s", "echomq.max-payload-size=1B")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EchoMqProperties properties = context.getBean(EchoMqProperties.class);
				assertThat(properties.maintenance().batchSize()).isEqualTo(1);
				assertThat(properties.shutdown().timeout()).isZero();
				assertThat(properties.listener().backoff().jitter()).isZero();
			});
	}

}
