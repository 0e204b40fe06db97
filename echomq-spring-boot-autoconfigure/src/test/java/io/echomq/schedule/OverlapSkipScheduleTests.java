package io.echomq.schedule;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.EchoMqEngine;
import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.JobContext;
import io.echomq.schedule.internal.ScheduleTicker;
import io.echomq.schedule.internal.Schedules;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule every 200ms whose handler takes 600ms, on a listener running four handlers
 * at once, declared by properties: with overlap {@code skip} never two occurrences run at
 * once and the fire times that fall during a run are skipped, not queued behind it; with
 * {@code allow} the same schedule runs occurrences side by side (so the first test can
 * fail).
 *
 * @author EchoMQ
 */
class OverlapSkipScheduleTests {

	static final String QUEUE = "slow";

	static final long INTERVAL_MS = 200;

	static final long HANDLER_MS = 600;

	static final AtomicInteger running = new AtomicInteger();

	static final AtomicInteger maxRunning = new AtomicInteger();

	static final Queue<Run> runs = new ConcurrentLinkedQueue<>();

	private final TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() {
		running.set(0);
		maxRunning.set(0);
		runs.clear();
		String prefix = "o" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class, EchoMqScheduleAutoConfiguration.class))
			.withUserConfiguration(SlowJobsConfiguration.class)
			.withPropertyValues("spring.data.redis.host=" + this.server.host(),
					"spring.data.redis.port=" + this.server.port(), "echomq.key-prefix=" + prefix,
					"echomq.shutdown.timeout=2s", "echomq.schedule.interval=10ms", "echomq.listener.concurrency=4",
					"echomq.schedules.slow.queue=" + QUEUE, "echomq.schedules.slow.every=" + INTERVAL_MS + "ms",
					"echomq.schedules.slow.payload=work");
	}

	@Test
	void skipShouldNeverRunTwoOccurrencesAtOnceAndShouldNotQueueTheSkippedOnes() {
		this.runner.withPropertyValues("echomq.schedules.slow.overlap=skip").run((context) -> {
			assertThat(context).hasNotFailed();
			long started = System.nanoTime();
			await().atMost(Duration.ofSeconds(6)).until(() -> runs.size() >= 3);
			long elapsedMs = (System.nanoTime() - started) / 1_000_000;
			assertThat(context.getBean(EchoMqTemplate.class).unschedule(QUEUE, "slow")).isTrue();
			QueueInspector inspector = new QueueInspector(context.getBean(EchoMqEngine.class));
			await().atMost(Duration.ofSeconds(5)).until(() -> {
				QueueStats stats = inspector.stats(QUEUE);
				return running.get() == 0 && stats.pending() + stats.active() + stats.schedule() == 0;
			});
			List<Run> done = new ArrayList<>(runs);
			long fires = context.getBean(ScheduleTicker.class).getFires();
			System.out
				.println("OVERLAP skip runs=" + done.size() + " fires=" + fires + " maxRunning=" + maxRunning.get()
						+ " elapsedMs=" + elapsedMs + " fireTimes=" + done.stream().map(Run::fireAt).toList());
			assertThat(maxRunning.get()).as("occurrences running at once").isOne();
			assertThat(done).as("runs").hasSizeGreaterThanOrEqualTo(3);
			assertThat(fires).as("every enqueued occurrence ran: none was queued behind a run").isEqualTo(done.size());
			done.sort((a, b) -> Long.compare(a.fireAt(), b.fireAt()));
			for (int i = 1; i < done.size(); i++) {
				assertThat(done.get(i).fireAt() - done.get(i - 1).fireAt())
					.as("the fire times falling during a run were skipped")
					.isGreaterThanOrEqualTo(2 * INTERVAL_MS);
			}
			for (int i = 1; i < done.size(); i++) {
				assertThat(done.get(i).startNanos()).as("a run starts after the previous one ended")
					.isGreaterThanOrEqualTo(done.get(i - 1).endNanos());
			}
		});
	}

	@Test
	void allowShouldRunOccurrencesSideBySide() {
		this.runner.withPropertyValues("echomq.schedules.slow.overlap=allow").run((context) -> {
			assertThat(context).hasNotFailed();
			await().atMost(Duration.ofSeconds(5)).until(() -> maxRunning.get() >= 2);
			assertThat(context.getBean(EchoMqTemplate.class).unschedule(QUEUE, "slow")).isTrue();
			System.out.println("OVERLAP allow maxRunning=" + maxRunning.get());
		});
	}

	record Run(long fireAt, long startNanos, long endNanos) {

	}

	@Configuration(proxyBeanMethods = false)
	static class SlowJobsConfiguration {

		@Bean
		SlowJobs slowJobs() {
			return new SlowJobs();
		}

	}

	static class SlowJobs {

		@EchoJob(queue = QUEUE)
		void handle(JobContext context, String payload) throws InterruptedException {
			long start = System.nanoTime();
			maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				// the work: three intervals long
				Thread.sleep(HANDLER_MS);
			}
			finally {
				running.decrementAndGet();
				runs.add(new Run(Long.parseLong(context.fields().get(Schedules.FIRE_AT_FIELD)), start,
						System.nanoTime()));
			}
		}

	}

}
