package io.echomq.listener;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.ReapResult;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Integration tests of {@code @EchoJob} listeners against a real Valkey server.
 *
 * @author EchoMQ
 */
class EchoJobListenerIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix);
	}

	private ListenerTestSupport.Probe probe() {
		return new ListenerTestSupport.Probe(server, this.prefix);
	}

	@Test
	void handlerIsInvokedWithTypedPayloadAndJobContext() {
		runner().withUserConfiguration(OrderListener.class).run((context) -> {
			JobId id = context.getBean(EchoMqTemplate.class).enqueue("orders", new Order("sku-1", 3));
			Invocation invocation = context.getBean(OrderListener.class).invocations.poll(10, TimeUnit.SECONDS);
			assertThat(invocation).isNotNull();
			assertThat(invocation.payload()).isEqualTo(new Order("sku-1", 3));
			assertThat(invocation.id()).isEqualTo(id);
			assertThat(invocation.queue()).isEqualTo("orders");
			assertThat(invocation.attempt()).isEqualTo(1);
			assertThat(invocation.maxAttempts()).isEqualTo(3);
			assertThat(invocation.enqueuedAt()).isBefore(Instant.now().plusSeconds(5));
			assertThat(invocation.thread()).startsWith("echomq-orders-");
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.row("orders", id).isEmpty());
				assertThat(probe.metrics("orders")).containsEntry("completed", "1");
				assertThat(probe.members("orders", KeyType.ACTIVE)).isEmpty();
			}
			assertThat(context.getBean(EchoJobListenerRegistry.class).getContainer("orders").getCompletedCount())
				.isEqualTo(1);
		});
	}

	@Test
	void failingHandlerIsRetriedWithBackoffThenDeadLettered() {
		runner().withUserConfiguration(FailingListener.class)
			.withPropertyValues("echomq.queues.failing.backoff.initial=200ms", "echomq.queues.failing.backoff.jitter=0",
					"echomq.queues.failing.backoff.multiplier=2")
			.run((context) -> {
				FailingListener listener = context.getBean(FailingListener.class);
				JobId id = context.getBean(EchoMqTemplate.class)
					.enqueue("failing", "boom", EnqueueOptions.defaults().withMaxAttempts(3));
				try (ListenerTestSupport.Probe probe = probe()) {
					await().atMost(TIMEOUT).until(() -> probe.members("failing", KeyType.DEAD).contains(id.toString()));
					Map<String, String> row = probe.row("failing", id);
					assertThat(row).containsEntry("state", "dead").containsEntry("attempts", "3");
					assertThat(row.get("last_error")).isEqualTo("java.lang.IllegalStateException: failed boom");
					assertThat(probe.members("failing", KeyType.ACTIVE)).isEmpty();
					assertThat(probe.members("failing", KeyType.SCHEDULE)).isEmpty();
				}
				List<Long> times = listener.times;
				assertThat(times).hasSize(3);
				// backoff 200ms then 400ms (no jitter), promoted within a 100ms tick
				assertThat(times.get(1) - times.get(0)).isGreaterThanOrEqualTo(190);
				assertThat(times.get(2) - times.get(1)).isGreaterThanOrEqualTo(390);
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("failing");
				assertThat(container.getRetriedCount()).isEqualTo(2);
				assertThat(container.getDeadCount()).isEqualTo(1);
			});
	}

	@Test
	void listenerMaxAttemptsCapsTheProducersBudget() {
		runner().withUserConfiguration(CappedListener.class).run((context) -> {
			JobId id = context.getBean(EchoMqTemplate.class)
				.enqueue("capped", "boom", EnqueueOptions.defaults().withMaxAttempts(10));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.members("capped", KeyType.DEAD).contains(id.toString()));
				assertThat(probe.row("capped", id)).containsEntry("attempts", "2").containsEntry("max_attempts", "10");
			}
			assertThat(context.getBean(CappedListener.class).maxAttemptsSeen).containsExactly(2L, 2L);
		});
	}

	@Test
	void unreadablePayloadIsDeadLetteredAtOnce() {
		runner().withUserConfiguration(OrderListener.class).run((context) -> {
			Engine jobs = context.getBean(Engine.class);
			JobId id = jobs.enqueues().enqueue("orders", "{not json", EnqueueSpec.defaults());
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.members("orders", KeyType.DEAD).contains(id.toString()));
				Map<String, String> row = probe.row("orders", id);
				assertThat(row).containsEntry("attempts", "1").containsEntry("state", "dead");
				assertThat(row.get("last_error")).startsWith(UnreadablePayloadException.class.getName())
					.contains(OrderListener.class.getName() + "#handle(JobContext, Order)");
			}
			assertThat(context.getBean(OrderListener.class).invocations).isEmpty();
		});
	}

	@Test
	void errorThrownByHandlerDoesNotKillTheContainer() {
		runner().withUserConfiguration(ErrorListener.class).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			ErrorListener listener = context.getBean(ErrorListener.class);
			JobId overflow = template.enqueue("errors", "overflow", EnqueueOptions.defaults().withMaxAttempts(1));
			JobId assertion = template.enqueue("errors", "assert", EnqueueOptions.defaults().withMaxAttempts(1));
			JobId fine = template.enqueue("errors", "fine");
			await().atMost(TIMEOUT).until(() -> listener.completed.contains("fine"));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT)
					.until(() -> probe.members("errors", KeyType.DEAD).size() == 2
							&& probe.row("errors", fine).isEmpty());
				assertThat(probe.row("errors", overflow).get("last_error")).startsWith("java.lang.StackOverflowError");
				assertThat(probe.row("errors", assertion).get("last_error"))
					.isEqualTo("java.lang.AssertionError: assert");
			}
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("errors");
			assertThat(container.isPollerAlive()).isTrue();
			JobId after = template.enqueue("errors", "after");
			await().atMost(TIMEOUT).until(() -> listener.completed.contains("after"));
			assertThat(after).isNotNull();
		});
	}

	@Test
	void enqueueToAnIdleContainerIsClaimedWithinMilliseconds() {
		runner().withUserConfiguration(LatencyListener.class).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			LatencyListener listener = context.getBean(LatencyListener.class);
			List<Long> latencies = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				long start = System.nanoTime();
				template.enqueue("latency", i);
				Long handledAt = listener.handled.poll(5, TimeUnit.SECONDS);
				assertThat(handledAt).isNotNull();
				latencies.add(TimeUnit.NANOSECONDS.toMillis(handledAt - start));
			}
			// the first may race the poller's first claim; the rest wake an idle BLPOP
			assertThat(latencies.subList(1, latencies.size())).allSatisfy((ms) -> assertThat(ms).isLessThan(500));
			System.getLogger(getClass().getName())
				.log(System.Logger.Level.INFO, "Enqueue-to-handler latencies (ms): " + latencies);
		});
	}

	@Test
	void delayedJobRunsWithinOnePromoteIntervalOfItsDueTime() {
		runner().withUserConfiguration(LatencyListener.class)
			.withPropertyValues("echomq.maintenance.promote-interval=200ms")
			.run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				LatencyListener listener = context.getBean(LatencyListener.class);
				long start = System.nanoTime();
				template.enqueue("latency", 1, EnqueueOptions.delayed(Duration.ofSeconds(1)));
				Long handledAt = listener.handled.poll(5, TimeUnit.SECONDS);
				assertThat(handledAt).isNotNull();
				long ms = TimeUnit.NANOSECONDS.toMillis(handledAt - start);
				assertThat(ms).isBetween(950L, 1000L + 200L + 250L);
			});
	}

	@Test
	void leaseIsRenewedWhileTheHandlerRuns() {
		runner().withUserConfiguration(SlowListener.class)
			.withPropertyValues("echomq.maintenance.reap-interval=100ms")
			.run((context) -> {
				SlowListener listener = context.getBean(SlowListener.class);
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("slow", "work");
				try (ListenerTestSupport.Probe probe = probe()) {
					await().atMost(TIMEOUT)
						.until(() -> listener.finished.get() == 1 && probe.row("slow", id).isEmpty());
					assertThat(probe.metrics("slow")).containsEntry("completed", "1").doesNotContainKey("reaped");
				}
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("slow");
				assertThat(listener.started.get()).isEqualTo(1);
				assertThat(container.getStaleCount()).isZero();
				assertThat(container.getCompletedCount()).isEqualTo(1);
			});
	}

	@Test
	void expiredLeaseIsReapedAndTheJobRunsAgain() {
		runner().withUserConfiguration(LatencyListener.class, ThrowingEvents.class, RecordingEvents.class)
			.withPropertyValues("echomq.maintenance.reap-interval=100ms")
			.run((context) -> {
				Engine jobs = context.getBean(Engine.class);
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("latency");
				// stopped, not paused: a pause lets a claim already on the wire take the
				// job
				container.stop();
				JobId id = jobs.enqueues().enqueue("latency", "7", EnqueueSpec.defaults());
				// a worker elsewhere claims it and dies
				List<ClaimedJob> lost = jobs.claims().claim("latency", Duration.ofMillis(200), 1);
				assertThat(lost).extracting(ClaimedJob::id).containsExactly(id);
				container.start();
				Long handled = context.getBean(LatencyListener.class).handled.poll(5, TimeUnit.SECONDS);
				assertThat(handled).isNotNull();
				RecordingEvents events = context.getBean(RecordingEvents.class);
				await().atMost(TIMEOUT).until(() -> events.events.contains("completed:" + id + ":2"));
				assertThat(events.events).contains("reaped:latency:1");
				assertThat(jobs.outcomes().complete("latency", id, lost.get(0).token()).isStale()).isTrue();
			});
	}

	@Test
	void eventListenersAreCalledAndTheirFailuresSwallowed() {
		runner().withUserConfiguration(FailingListener.class, ThrowingEvents.class, RecordingEvents.class)
			.withPropertyValues("echomq.queues.failing.backoff.initial=100ms")
			.run((context) -> {
				JobId id = context.getBean(EchoMqTemplate.class)
					.enqueue("failing", "boom", EnqueueOptions.defaults().withMaxAttempts(2));
				RecordingEvents events = context.getBean(RecordingEvents.class);
				await().atMost(TIMEOUT).until(() -> events.events.contains("failed:" + id + ":DEAD"));
				assertThat(events.events).contains("claimed:" + id + ":1", "failed:" + id + ":SCHEDULE",
						"promoted:failing:1", "claimed:" + id + ":2");
				assertThat(context.getBean(ThrowingEvents.class).calls.get()).isGreaterThanOrEqualTo(4);
			});
	}

	@Test
	void pausedContainerClaimsNothingUntilResumed() {
		runner().withUserConfiguration(LatencyListener.class).run((context) -> {
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("latency");
			LatencyListener listener = context.getBean(LatencyListener.class);
			container.pause();
			assertThat(container.isPaused()).isTrue();
			JobId id = context.getBean(EchoMqTemplate.class).enqueue("latency", 1);
			try (ListenerTestSupport.Probe probe = probe()) {
				// the idle watchdog (2s) passes at least once while paused
				assertThat(listener.handled.poll(2500, TimeUnit.MILLISECONDS)).isNull();
				assertThat(probe.members("latency", KeyType.PENDING)).containsExactly(id.toString());
				container.resume();
				assertThat(listener.handled.poll(5, TimeUnit.SECONDS)).isNotNull();
			}
		});
	}

	@Test
	void programmaticListenerIsRegisteredAndStartedAtOnce() {
		runner().run((context) -> {
			EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
			BlockingQueue<String> payloads = new LinkedBlockingQueue<>();
			QueueListenerContainer container = registry.register("manual",
					(job, jobContext) -> payloads.add(job.payload()),
					ListenerSettings.builder().id("manual-listener").concurrency(2).build());
			assertThat(container.isRunning()).isTrue();
			assertThat(container.getSettings().concurrency()).isEqualTo(2);
			assertThat(registry.getContainerById("manual-listener")).isSameAs(container);
			context.getBean(EchoMqTemplate.class).enqueue("manual", Map.of("a", 1));
			assertThat(payloads.poll(5, TimeUnit.SECONDS)).isEqualTo("{\"a\":1}");
			assertThat(registry.unregister("manual")).isSameAs(container);
			assertThat(container.isRunning()).isFalse();
			assertThat(registry.getQueues()).doesNotContain("manual");
		});
	}

	@Test
	void tenIdleQueuesUseAlmostNoCpu() {
		runner().run((context) -> {
			EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
			for (int i = 0; i < 10; i++) {
				registry.register("idle-" + i, (job, jobContext) -> {
				});
			}
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			// let every poller reach its idle wait, then measure over a few idle waits
			new CountDownLatch(1).await(1, TimeUnit.SECONDS);
			long before = pollerCpuNanos(threads);
			long wallStart = System.nanoTime();
			new CountDownLatch(1).await(5, TimeUnit.SECONDS);
			long cpuMillis = TimeUnit.NANOSECONDS.toMillis(pollerCpuNanos(threads) - before);
			long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wallStart);
			System.getLogger(getClass().getName())
				.log(System.Logger.Level.INFO,
						"10 idle pollers used " + cpuMillis + " ms CPU in " + wallMillis + " ms");
			assertThat(registry.getContainers().values()).allSatisfy((c) -> assertThat(c.isPollerAlive()).isTrue());
			assertThat(cpuMillis).isLessThan(100);
		});
	}

	private static long pollerCpuNanos(ThreadMXBean threads) {
		long total = 0;
		for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
			if (info.getThreadName().startsWith("echomq-poller-idle-")) {
				total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
			}
		}
		return total;
	}

	record Order(String sku, int quantity) {
	}

	record Invocation(Object payload, JobId id, String queue, long attempt, long maxAttempts, Instant enqueuedAt,
			String thread) {
	}

	static class OrderListener {

		final BlockingQueue<Invocation> invocations = new LinkedBlockingQueue<>();

		@EchoJob(queue = "orders")
		void handle(JobContext context, Order order) {
			this.invocations.add(new Invocation(order, context.id(), context.queue(), context.attempt(),
					context.maxAttempts(), context.enqueuedAt(), Thread.currentThread().getName()));
		}

	}

	static class FailingListener {

		final List<Long> times = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "failing")
		void handle(String payload) {
			this.times.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
			throw new IllegalStateException("failed " + payload);
		}

	}

	static class CappedListener {

		final List<Long> maxAttemptsSeen = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "capped", maxAttempts = "2", backoffInitial = "10ms")
		void handle(String payload, JobContext context) {
			this.maxAttemptsSeen.add(context.maxAttempts());
			throw new IllegalStateException(payload);
		}

	}

	static class ErrorListener {

		final List<String> completed = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "errors", concurrency = "1")
		void handle(String payload) {
			if (payload.equals("overflow")) {
				recurse(0);
			}
			if (payload.equals("assert")) {
				throw new AssertionError("assert");
			}
			this.completed.add(payload);
		}

		private int recurse(int depth) {
			return recurse(depth + 1) + 1;
		}

	}

	static class LatencyListener {

		final BlockingQueue<Long> handled = new LinkedBlockingQueue<>();

		@EchoJob(queue = "latency")
		void handle(int payload) {
			this.handled.add(System.nanoTime());
		}

	}

	static class SlowListener {

		final AtomicInteger started = new AtomicInteger();

		final AtomicInteger finished = new AtomicInteger();

		@EchoJob(queue = "slow", lease = "1s")
		void handle(String payload) throws InterruptedException {
			this.started.incrementAndGet();
			// three lease lengths of work
			new CountDownLatch(1).await(3, TimeUnit.SECONDS);
			this.finished.incrementAndGet();
		}

	}

	static class ThrowingEvents implements JobEventListener {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public void onClaimed(ReceivedJob job, Duration wait) {
			this.calls.incrementAndGet();
			throw new IllegalStateException("listener failure");
		}

		@Override
		public void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
			this.calls.incrementAndGet();
			throw new IllegalStateException("listener failure");
		}

	}

	static class RecordingEvents implements JobEventListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void onClaimed(ReceivedJob job, Duration wait) {
			this.events.add("claimed:" + job.id() + ":" + job.attempt());
		}

		@Override
		public void onCompleted(ReceivedJob job, Duration duration) {
			this.events.add("completed:" + job.id() + ":" + job.attempt());
		}

		@Override
		public void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
			this.events.add("failed:" + job.id() + ":" + result.state());
		}

		@Override
		public void onReaped(String queue, ReapResult result) {
			this.events.add("reaped:" + queue + ":" + result.requeued());
		}

		@Override
		public void onPromoted(String queue, int count) {
			this.events.add("promoted:" + queue + ":" + count);
		}

	}

}
