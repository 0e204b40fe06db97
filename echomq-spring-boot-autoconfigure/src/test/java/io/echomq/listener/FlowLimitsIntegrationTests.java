package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The queue-wide flow limits (a queue's {@code max-active} and {@code rate-limit}) hold
 * across two application contexts consuming one queue, each with its own connections,
 * containers and per-node concurrency.
 *
 * @author EchoMQ
 */
class FlowLimitsIntegrationTests {

	private static final Tracker tracker = new Tracker();

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void maxActiveIsNeverExceededAcrossTwoContexts() {
		tracker.reset(24);
		ApplicationContextRunner runner = ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(CappedListener.class)
			.withPropertyValues("echomq.queues.capped.max-active=3");
		runner.run((first) -> runner.run((second) -> {
			EchoMqTemplate template = first.getBean(EchoMqTemplate.class);
			for (int i = 0; i < 24; i++) {
				template.enqueue("capped", "job-" + i);
			}
			assertThat(tracker.done.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(tracker.peak.get()).isEqualTo(3);
			assertThat(first.getBean(CappedListener.class).handled.get()).isPositive();
			assertThat(second.getBean(CappedListener.class).handled.get()).isPositive();
			assertClean(first.getBean(Engine.class), "capped");
		}));
	}

	@Test
	void rateLimitIsNeverExceededAcrossTwoContexts() {
		tracker.reset(30);
		ApplicationContextRunner runner = ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(RateLimitedListener.class)
			.withPropertyValues("echomq.queues.limited.rate-limit.limit=6",
					"echomq.queues.limited.rate-limit.period=400ms");
		runner.run((first) -> runner.run((second) -> {
			EchoMqTemplate template = first.getBean(EchoMqTemplate.class);
			for (int i = 0; i < 30; i++) {
				template.enqueue("limited", "job-" + i);
			}
			assertThat(tracker.done.await(30, TimeUnit.SECONDS)).isTrue();
			List<Long> starts = tracker.sortedStarts();
			assertThat(starts).hasSize(30);
			for (long end : starts) {
				long inWindow = starts.stream().filter((t) -> t > end - 400 && t <= end).count();
				assertThat(inWindow).as("starts in the 400 ms window ending at %d", end).isLessThanOrEqualTo(6);
			}
			// 30 starts at 6 per 400 ms need at least four full windows after the first
			assertThat(starts.get(29) - starts.get(0)).isGreaterThanOrEqualTo(1600);
			assertClean(first.getBean(Engine.class), "limited");
		}));
	}

	@Test
	void laneMutexHoldsAcrossTwoContextsAndEveryLaneIsServed() {
		tracker.reset(30);
		ApplicationContextRunner runner = ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(LanedListener.class)
			.withPropertyValues("echomq.queues.laned.lanes.max-active=1");
		runner.run((first) -> runner.run((second) -> {
			EchoMqTemplate template = first.getBean(EchoMqTemplate.class);
			for (int i = 0; i < 30; i++) {
				String lane = "tenant-" + (i % 3);
				template.enqueue("laned", lane, EnqueueOptions.defaults().withLane(lane));
			}
			assertThat(tracker.done.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(tracker.lanePeaks).hasSize(3).allSatisfy((lane, peak) -> assertThat(peak.get()).isOne());
			assertThat(tracker.peak.get()).as("the three lanes ran side by side").isGreaterThan(1);
			assertClean(first.getBean(Engine.class), "laned");
		}));
	}

	private static void assertClean(Engine jobs, String queue) {
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			AuditReport report = new QueueAuditor(jobs).audit(queue, Duration.ofSeconds(30));
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
		});
	}

	static final class Tracker {

		final AtomicInteger inFlight = new AtomicInteger();

		final AtomicInteger peak = new AtomicInteger();

		final List<Long> starts = Collections.synchronizedList(new ArrayList<>());

		final Map<String, AtomicInteger> laneInFlight = new ConcurrentHashMap<>();

		final Map<String, AtomicInteger> lanePeaks = new ConcurrentHashMap<>();

		volatile CountDownLatch done = new CountDownLatch(0);

		void reset(int jobs) {
			this.inFlight.set(0);
			this.peak.set(0);
			this.starts.clear();
			this.laneInFlight.clear();
			this.lanePeaks.clear();
			this.done = new CountDownLatch(jobs);
		}

		void run(JobContext context, Duration work) throws InterruptedException {
			this.starts.add(context.job().claimedAt().toEpochMilli());
			this.peak.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
			String lane = context.fields().get("lane");
			AtomicInteger inLane = (lane != null) ? this.laneInFlight.computeIfAbsent(lane, (l) -> new AtomicInteger())
					: new AtomicInteger();
			if (lane != null) {
				this.lanePeaks.computeIfAbsent(lane, (l) -> new AtomicInteger())
					.accumulateAndGet(inLane.incrementAndGet(), Math::max);
			}
			try {
				new CountDownLatch(1).await(work.toMillis(), TimeUnit.MILLISECONDS);
			}
			finally {
				this.inFlight.decrementAndGet();
				if (lane != null) {
					inLane.decrementAndGet();
				}
			}
		}

		List<Long> sortedStarts() {
			synchronized (this.starts) {
				return this.starts.stream().sorted().toList();
			}
		}

	}

	static class CappedListener {

		final AtomicInteger handled = new AtomicInteger();

		@EchoJob(queue = "capped", concurrency = "4")
		void handle(String payload, JobContext context) throws InterruptedException {
			this.handled.incrementAndGet();
			tracker.run(context, Duration.ofMillis(60));
			tracker.done.countDown();
		}

	}

	static class LanedListener {

		@EchoJob(queue = "laned", concurrency = "4")
		void handle(String payload, JobContext context) throws InterruptedException {
			tracker.run(context, Duration.ofMillis(40));
			tracker.done.countDown();
		}

	}

	static class RateLimitedListener {

		@EchoJob(queue = "limited", concurrency = "4")
		void handle(String payload, JobContext context) throws InterruptedException {
			tracker.run(context, Duration.ZERO);
			tracker.done.countDown();
		}

	}

}
