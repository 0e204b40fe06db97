package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.RowFields;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.micrometer.EchoMqEnqueueMetrics;
import io.echomq.micrometer.EchoMqJobMetrics;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.search.MeterNotFoundException;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link EchoMqMetricsAutoConfiguration}: meter values after real jobs ran on a
 * real server, and the back-off without Micrometer or Boot's metrics module.
 *
 * @author EchoMQ
 */
class EchoMqMetricsAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = ObservabilityTestSupport
		.runner(MetricsAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class)
		.withUserConfiguration(SimpleRegistryConfiguration.class);

	@Test
	void runShouldCreateMeterBinders() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(EchoMqJobMetrics.class)
			.hasSingleBean(EchoMqEnqueueMetrics.class)
			.hasSingleBean(EchoMqQueueMetrics.class));
	}

	@Test
	void jobMetersShouldCountWhatListenersDid() {
		String ok = ObservabilityTestSupport.unique("ok");
		String flaky = ObservabilityTestSupport.unique("flaky");
		this.contextRunner.run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			EchoJobListenerRegistry listeners = context.getBean(EchoJobListenerRegistry.class);
			listeners.register(ok, (job, jobContext) -> {
			});
			listeners.register(flaky, (job, jobContext) -> {
				throw new IllegalStateException("boom");
			}, ListenerSettings.builder().maxAttempts(2).build());
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			template.enqueueAll(ok, List.of("a", "b", "c"));
			template.enqueue(ok, "later", EnqueueOptions.delayed(Duration.ofMillis(200)));
			template.enqueue(flaky, "x");
			await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				assertThat(count(meters.find("echomq.jobs.completed").tag("queue", ok))).isEqualTo(4);
				assertThat(count(meters.find("echomq.jobs.dead").tag("queue", flaky))).isEqualTo(1);
			});
			assertThat(count(meters.find("echomq.jobs.enqueued").tag("queue", ok))).isEqualTo(4);
			assertThat(count(meters.find("echomq.jobs.enqueued").tag("queue", flaky))).isEqualTo(1);
			assertThat(count(meters.find("echomq.jobs.promoted").tag("queue", ok))).isEqualTo(1);
			assertThat(count(
					meters.find("echomq.jobs.failed").tag("queue", flaky).tag("exception", "IllegalStateException")))
				.isEqualTo(2);
			assertThat(count(meters.find("echomq.jobs.retried").tag("queue", flaky))).isEqualTo(1);
			assertThat(timerCount(meters, "echomq.job.duration", ok, "success")).isEqualTo(4);
			assertThat(timerCount(meters, "echomq.job.duration", flaky, "retry")).isEqualTo(1);
			assertThat(timerCount(meters, "echomq.job.duration", flaky, "dead")).isEqualTo(1);
			assertThat(meters.get("echomq.job.wait").tag("queue", ok).timer().count()).isEqualTo(4);
			// listeners registered after start-up get their in-flight gauge with the next
			// sample
			context.getBean(EchoMqQueueMetrics.class).sample();
			assertThat(meters.get("echomq.listener.in.flight").tag("queue", ok).gauge().value()).isZero();
			assertThat(meters.get("echomq.queue.jobs").tag("queue", flaky).tag("state", "dead").gauge().value())
				.isEqualTo(1);
		});
	}

	@Test
	void reapedLeasesShouldBeCounted() {
		String queue = ObservabilityTestSupport.unique("reaped");
		this.contextRunner.withPropertyValues("echomq.queues." + queue + ".max-attempts=3").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(EchoMqTemplate.class).enqueue(queue, "abandoned");
			// a worker that claims and vanishes: its lease expires and the reaper takes
			// it back
			List<ClaimedJob> claimed = context.getBean(Engine.class).claims().claim(queue, Duration.ofMillis(100), 1);
			assertThat(claimed).hasSize(1);
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(
						() -> assertThat(count(meters.find("echomq.jobs.reaped").tag("queue", queue))).isEqualTo(1));
		});
	}

	@Test
	void jobsPastTheQueuesDefaultExpiryShouldBeCountedAndNeverRun() {
		String queue = ObservabilityTestSupport.unique("expired");
		this.contextRunner.withPropertyValues("echomq.queues." + queue + ".expiry=50ms").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			JobId id = context.getBean(EchoMqTemplate.class).enqueue(queue, "late");
			QueueInspector inspector = context.getBean(QueueInspector.class);
			long deadline = Long.parseLong(inspector.row(queue, id).get(RowFields.EXPIRES_AT));
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> redis.execute((RedisCallback<Long>) RedisConnection::time) > deadline);
			AtomicInteger ran = new AtomicInteger();
			context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> ran.incrementAndGet());
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(count(meters.find("echomq.jobs.expired").tag("queue", queue))).isOne());
			assertThat(inspector.row(queue, id)).containsEntry("state", "dead")
				.containsEntry(RowFields.DEAD_REASON, "expired");
			assertThat(ran).hasValue(0);
		});
	}

	@Test
	void queueGaugesShouldShowTheLastSample() {
		String queue = ObservabilityTestSupport.unique("gauges");
		this.contextRunner.withPropertyValues("echomq.metrics.sample-interval=1h").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			template.enqueueAll(queue, List.of("a", "b"));
			template.enqueue(queue, "c", EnqueueOptions.delayed(Duration.ofHours(1)));
			assertThat(meters.find("echomq.queue.jobs").tag("queue", queue).gauges()).isEmpty();
			context.getBean(EchoMqQueueMetrics.class).sample();
			assertThat(gauge(meters, queue, "pending")).isEqualTo(2);
			assertThat(gauge(meters, queue, "schedule")).isEqualTo(1);
			assertThat(gauge(meters, queue, "active")).isZero();
			assertThat(gauge(meters, queue, "dead")).isZero();
			template.enqueue(queue, "d");
			// the gauge never calls Redis: it shows the last sample until the next one
			assertThat(gauge(meters, queue, "pending")).isEqualTo(2);
			context.getBean(EchoMqQueueMetrics.class).sample();
			assertThat(gauge(meters, queue, "pending")).isEqualTo(3);
			assertThat(meters.get("echomq.queue.backlog").tag("queue", queue).gauge().value())
				.as("the scaling signal, from the auto-configured QueueBacklogs")
				.isEqualTo(3);
		});
	}

	@Test
	void flowGaugesShouldShowTheLanesAndEachLimitWithItsCurrentUse() {
		String queue = ObservabilityTestSupport.unique("flow");
		this.contextRunner.withPropertyValues(ObservabilityTestSupport.flowLimits(queue))
			.withPropertyValues("echomq.metrics.sample-interval=1h")
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				CountDownLatch release = ObservabilityTestSupport.holdAtCap(context, queue);
				try {
					context.getBean(EchoMqQueueMetrics.class).sample();
					assertThat(meters.get("echomq.queue.lanes").tag("queue", queue).gauge().value()).isEqualTo(1);
					assertThat(meters.get("echomq.queue.lanes.deepest").tag("queue", queue).gauge().value())
						.isEqualTo(1);
					assertThat(limit(meters, "echomq.queue.limit", queue, "max-active")).isEqualTo(2);
					assertThat(limit(meters, "echomq.queue.limit.used", queue, "max-active")).isEqualTo(2);
					assertThat(limit(meters, "echomq.queue.limit", queue, "rate")).isEqualTo(100 / 3600.0);
					assertThat(limit(meters, "echomq.queue.limit.used", queue, "rate")).isEqualTo(2 / 3600.0);
				}
				finally {
					release.countDown();
				}
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(count(meters.find("echomq.jobs.completed").tag("queue", queue)))
						.isEqualTo(3));
				context.getBean(EchoMqQueueMetrics.class).sample();
				assertThat(meters.get("echomq.queue.lanes").tag("queue", queue).gauge().value()).isZero();
				assertThat(meters.get("echomq.queue.lanes.deepest").tag("queue", queue).gauge().value()).isZero();
				assertThat(limit(meters, "echomq.queue.limit.used", queue, "max-active")).isZero();
				assertThat(limit(meters, "echomq.queue.limit.used", queue, "rate")).isEqualTo(3 / 3600.0);
			});
	}

	private static double limit(MeterRegistry meters, String name, String queue, String limit) {
		return meters.get(name).tag("queue", queue).tag("limit", limit).gauge().value();
	}

	@Test
	void queueGaugesShouldBeSampledOnTheInterval() {
		String queue = ObservabilityTestSupport.unique("sampled");
		this.contextRunner.withPropertyValues("echomq.metrics.sample-interval=100ms").run((context) -> {
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			context.getBean(EchoMqTemplate.class).enqueueAll(queue, List.of("a", "b", "c"));
			// the gauges are registered by the first sample, which may not have run yet
			await().atMost(Duration.ofSeconds(10))
				.ignoreException(MeterNotFoundException.class)
				.untilAsserted(() -> assertThat(gauge(meters, queue, "pending")).isEqualTo(3));
		});
	}

	@Test
	void runWithZeroSampleIntervalShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("echomq.metrics.sample-interval=0s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("echomq.metrics.sample-interval");
		});
	}

	@Test
	void runWithoutMeterRegistryShouldNotCreateMeters() {
		ObservabilityTestSupport.runner(MetricsAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class)
			.run(EchoMqMetricsAutoConfigurationTests::assertNoMeters);
	}

	@Test
	void runWithoutMicrometerShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
			.run(EchoMqMetricsAutoConfigurationTests::assertNoMeters);
	}

	@Test
	void runWithoutBootMetricsModuleShouldBackOff() {
		ObservabilityTestSupport.runner(EchoMqMetricsAutoConfiguration.class)
			.withUserConfiguration(SimpleRegistryConfiguration.class)
			.withClassLoader(new FilteredClassLoader(MetricsAutoConfiguration.class))
			.run(EchoMqMetricsAutoConfigurationTests::assertNoMeters);
	}

	@Test
	void runWithUserJobMetricsShouldBackOff() {
		this.contextRunner.withBean("custom", EchoMqJobMetrics.class, EchoMqJobMetrics::new)
			.run((context) -> assertThat(context).hasSingleBean(EchoMqJobMetrics.class).hasBean("custom"));
	}

	private static void assertNoMeters(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed()
			.hasSingleBean(EchoMqTemplate.class)
			.doesNotHaveBean(EchoMqJobMetrics.class)
			.doesNotHaveBean(EchoMqEnqueueMetrics.class)
			.doesNotHaveBean(EchoMqQueueMetrics.class);
	}

	private static double count(Search search) {
		return search.counters().stream().mapToDouble((counter) -> counter.count()).sum();
	}

	private static long timerCount(MeterRegistry meters, String name, String queue, String outcome) {
		return meters.find(name)
			.tag("queue", queue)
			.tag("outcome", outcome)
			.timers()
			.stream()
			.mapToLong((timer) -> timer.count())
			.sum();
	}

	private static double gauge(MeterRegistry meters, String queue, String state) {
		return meters.get("echomq.queue.jobs").tag("queue", queue).tag("state", state).gauge().value();
	}

	@Configuration(proxyBeanMethods = false)
	static class SimpleRegistryConfiguration {

		@Bean
		SimpleMeterRegistry simpleMeterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}
