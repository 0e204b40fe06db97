package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Engine;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job whose token is ahead of its attempt number (it was released on a graceful stop,
 * or replayed from dead) keeps its lease while a long handler runs in another context,
 * and completes exactly once.
 *
 * @author EchoMQ
 */
class FencingTokenTests {

	private static final String QUEUE = "long";

	private static final Duration LEASE = Duration.ofMillis(1500);

	/** Three leases: the lease must be renewed at least twice while the handler runs. */
	private static final Duration LONG_RUN = LEASE.multipliedBy(3);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private final LongJobs handler = new LongJobs();

	@Test
	void jobReleasedByGracefulStopCompletesOnceInAnotherContext() {
		JobId id = enqueueAndRelease(1);
		assertRow(id, "1", "1");
		runToCompletion(Mode.LONG, id);
	}

	@Test
	void jobReleasedTwiceCompletesOnceInAThirdContext() {
		JobId id = enqueueAndRelease(2);
		assertRow(id, "2", "2");
		runToCompletion(Mode.LONG, id);
	}

	@Test
	void jobReplayedFromDeadCompletesOnce() {
		this.handler.mode = Mode.FAIL;
		runner().run((context) -> {
			JobId id = ListenerTestSupport.enqueueWithOneAttempt(context, QUEUE);
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> probe.members(QUEUE, KeyType.DEAD).contains(id.toString()));
			}
			this.handler.mode = Mode.LONG;
			assertThat(context.getBean(Engine.class).admin().replay(QUEUE, id, 3).isApplied()).isTrue();
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer(QUEUE);
			awaitCompleted(id);
			assertThat(this.handler.runs).hasValue(2);
			assertThat(this.handler.attempts).containsExactly(1L, 1L);
			assertThat(container.getCompletedCount()).isEqualTo(1);
			assertThat(container.getStaleCount()).isZero();
			assertThat(this.handler.leaseLost).containsOnly(false);
		});
	}

	@Test
	void extendLeaseFromTheHandlerWorksAfterARelease() {
		JobId id = enqueueAndRelease(1);
		this.handler.extendTo = LEASE.multipliedBy(2);
		runToCompletion(Mode.LONG, id);
		assertThat(this.handler.extended).containsExactly(true);
	}

	/**
	 * Enqueue one job and let a context claim it and stop gracefully {@code times} times
	 * while its handler runs, so that it goes back to pending unfinished each time.
	 */
	private JobId enqueueAndRelease(int times) {
		JobId id = null;
		for (int i = 0; i < times; i++) {
			this.handler.mode = Mode.BLOCK;
			JobId enqueued = id;
			JobId[] holder = new JobId[1];
			runner().withPropertyValues("echomq.shutdown.timeout=100ms").run((context) -> {
				holder[0] = (enqueued != null) ? enqueued : context.getBean(EchoMqTemplate.class).enqueue(QUEUE, "x");
				assertThat(this.handler.started.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer(QUEUE);
				context.close();
				assertThat(container.getReleasedCount()).isEqualTo(1);
			});
			id = holder[0];
		}
		return id;
	}

	private void runToCompletion(Mode mode, JobId id) {
		this.handler.mode = mode;
		int runsBefore = this.handler.runs.get();
		runner().run((context) -> {
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer(QUEUE);
			awaitCompleted(id);
			assertThat(this.handler.runs.get() - runsBefore).as("runs in the last context").isEqualTo(1);
			assertThat(container.getCompletedCount()).isEqualTo(1);
			assertThat(container.getStaleCount()).isZero();
			assertThat(container.getRetriedCount()).isZero();
			assertThat(container.getDeadCount()).isZero();
			assertThat(this.handler.attempts.get(this.handler.attempts.size() - 1)).as("attempt number").isEqualTo(1L);
			assertThat(this.handler.leaseLost.get(this.handler.leaseLost.size() - 1)).isFalse();
		});
	}

	private void awaitCompleted(JobId id) {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			await().atMost(LONG_RUN.multipliedBy(4)).until(() -> probe.row(QUEUE, id).isEmpty());
			assertThat(probe.metrics(QUEUE)).containsEntry("completed", "1");
			assertThat(probe.members(QUEUE, KeyType.ACTIVE)).isEmpty();
			assertThat(probe.members(QUEUE, KeyType.PENDING)).isEmpty();
			assertThat(probe.members(QUEUE, KeyType.SCHEDULE)).isEmpty();
			assertThat(probe.members(QUEUE, KeyType.DEAD)).isEmpty();
		}
	}

	private void assertRow(JobId id, String attempts, String released) {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			Map<String, String> row = probe.row(QUEUE, id);
			assertThat(row).containsEntry("state", "pending")
				.containsEntry("attempts", attempts)
				.containsEntry("released", released);
		}
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withBean(LongJobs.class, () -> this.handler)
			.withPropertyValues("echomq.listener.lease=" + LEASE.toMillis() + "ms",
					"echomq.maintenance.reap-interval=100ms");
	}

	enum Mode {

		/** Run until interrupted by the container's stop. */
		BLOCK,

		/** Throw. */
		FAIL,

		/** Run for three leases, then return. */
		LONG

	}

	static class LongJobs {

		final AtomicInteger runs = new AtomicInteger();

		final Semaphore started = new Semaphore(0);

		final List<Long> attempts = new CopyOnWriteArrayList<>();

		final List<Boolean> leaseLost = new CopyOnWriteArrayList<>();

		final List<Boolean> extended = new CopyOnWriteArrayList<>();

		volatile Mode mode = Mode.LONG;

		volatile Duration extendTo;

		@EchoJob(queue = QUEUE, concurrency = "1")
		void handle(String payload, JobContext context) throws InterruptedException {
			this.runs.incrementAndGet();
			this.attempts.add(context.attempt());
			this.started.release();
			switch (this.mode) {
				case BLOCK -> new CountDownLatch(1).await(30, TimeUnit.SECONDS);
				case FAIL -> throw new IllegalStateException("fails on purpose");
				case LONG -> {
					if (this.extendTo != null) {
						this.extended.add(context.extendLease(this.extendTo));
					}
					// the handler's own work: three leases long
					new CountDownLatch(1).await(LONG_RUN.toMillis(), TimeUnit.MILLISECONDS);
					this.leaseLost.add(context.isLeaseLost());
				}
			}
		}

	}

}
