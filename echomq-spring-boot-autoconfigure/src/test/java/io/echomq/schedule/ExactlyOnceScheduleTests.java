package io.echomq.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.annotation.EchoSchedule;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.autoconfigure.EchoMqMetricsAutoConfiguration;
import io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.JobContext;
import io.echomq.micrometer.EchoMqScheduleMetrics;
import io.echomq.schedule.internal.ScheduleTicker;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three Spring contexts on one real server, each with a listener container for the queue
 * and the same {@code @EchoSchedule}, all ticking every 10ms: every fire time is enqueued
 * and handled exactly once, and the fires counted by the three nodes add up to the jobs.
 *
 * @author EchoMQ
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(ServerFlavor.class)
class ExactlyOnceScheduleTests {

	static final String QUEUE = "ticks";

	static final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();

	private final ServerFlavor flavor;

	ExactlyOnceScheduleTests(ServerFlavor flavor) {
		this.flavor = flavor;
	}

	@Test
	void threeNodesTickingTogetherEnqueueExactlyOneJobPerFireTime() {
		handled.clear();
		TestServer server = TestRedisServer.shared(this.flavor);
		String prefix = "x" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class, MetricsAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class,
					EchoMqScheduleAutoConfiguration.class))
			.withUserConfiguration(TickConfiguration.class)
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"echomq.key-prefix=" + prefix, "echomq.shutdown.timeout=2s", "echomq.schedule.interval=10ms",
					"echomq.listener.idle-wait=200ms");
		List<AssertableApplicationContext> nodes = new ArrayList<>();
		runner.run((first) -> runner.run((second) -> runner.run((third) -> {
			nodes.addAll(List.of(first, second, third));
			await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() >= 20);
			EchoMqTemplate template = third.getBean(EchoMqTemplate.class);
			assertThat(template.unschedule(QUEUE, "tick")).isTrue();
			QueueInspector inspector = new QueueInspector(first.getBean(io.echomq.core.internal.Engine.class));
			await().atMost(Duration.ofSeconds(30)).until(() -> {
				QueueStats stats = inspector.stats(QUEUE);
				return stats.pending() + stats.active() + stats.schedule() == 0;
			});
			assertThat(inspector.stats(QUEUE).dead()).isZero();
			double fires = 0;
			for (AssertableApplicationContext node : nodes) {
				Counter counter = node.getBean(MeterRegistry.class)
					.find(EchoMqScheduleMetrics.FIRES)
					.tags("queue", QUEUE, "schedule", "tick")
					.counter();
				fires += (counter != null) ? counter.count() : 0;
			}
			Map<Long, Integer> perFireTime = new TreeMap<>();
			handled.forEach((fireAt, count) -> perFireTime.put(Long.parseLong(fireAt), count.get()));
			long duplicates = perFireTime.values().stream().filter((count) -> count > 1).count();
			System.out.println("SCHEDULE nodes=" + nodes.size() + " fireTimes=" + perFireTime.size() + " jobs="
					+ perFireTime.values().stream().mapToInt(Integer::intValue).sum() + " duplicateFireTimes="
					+ duplicates + " fires=" + (long) fires);
			assertThat(perFireTime.values()).as("jobs per fire time").containsOnly(1);
			assertThat(fires).isEqualTo(perFireTime.size());
			List<Long> times = List.copyOf(perFireTime.keySet());
			for (int i = 1; i < times.size(); i++) {
				assertThat((times.get(i) - times.get(0)) % 100).as("fire times lie on the 100ms grid").isZero();
			}
			assertThat(nodes)
				.allSatisfy((node) -> assertThat(node.getBean(ScheduleTicker.class).getTicks()).isPositive());
		})));
	}

	@Configuration(proxyBeanMethods = false)
	static class TickConfiguration {

		@Bean
		SimpleMeterRegistry simpleMeterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		TickJobs tickJobs() {
			return new TickJobs();
		}

	}

	static class TickJobs {

		@EchoSchedule(queue = QUEUE, name = "tick", every = "100ms")
		String tick() {
			return "tick";
		}

		@EchoJob(queue = QUEUE)
		void handle(JobContext context, String payload) {
			assertThat(payload).isEqualTo("tick");
			handled.computeIfAbsent(context.fields().get("fire_at"), (key) -> new AtomicInteger()).incrementAndGet();
		}

	}

}
