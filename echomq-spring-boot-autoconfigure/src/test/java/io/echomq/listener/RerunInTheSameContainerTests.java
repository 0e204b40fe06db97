package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job whose lease lapsed while its handler still ran goes back to pending and runs
 * again (at-least-once). When the same container claims it again, each run holds a slot
 * of its own until its handler returns: the container counts both in flight, a stop would
 * wait for both, and both slots come back.
 *
 * @author EchoMQ
 */
class RerunInTheSameContainerTests {

	private static final String QUEUE = "rerun";

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private final Reruns handler = new Reruns();

	@Test
	void eachRunOfAJobClaimedAgainWhileItsFirstRunStillRunsHoldsASlotUntilItReturns() {
		runWithLongLease((context, jobs, container) -> {
			JobId id = context.getBean(EchoMqTemplate.class).enqueue(QUEUE, "first");
			assertThat(this.handler.firstStarted.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				// the lease lapses while the first run's handler still runs: the reaper
				// hands it back
				probe.template()
					.opsForZSet()
					.add(jobs.keyspace().queueKey(QUEUE, KeyType.ACTIVE.suffix()), id.toString(), 1);
				assertThat(jobs.upkeep().reap(QUEUE, 10).requeued()).isOne();
				// the container's free slot claims it again; the second run returns at
				// once
				await().atMost(TIMEOUT).until(() -> container.getCompletedCount() == 1);
				assertThat(this.handler.runs.get()).isEqualTo(2);
				assertThat(probe.row(QUEUE, id)).isEmpty();
				assertThat(container.inFlight()).as("the first run still holds its slot").isOne();
				this.handler.firstMayReturn.countDown();
				await().atMost(TIMEOUT).until(() -> container.inFlight() == 0);
				assertThat(container.getCompletedCount()).as("the first run's outcome is stale").isOne();
				assertThat(probe.metrics(QUEUE)).containsEntry("completed", "1");
			}
			// both slots are free again: two jobs run side by side
			context.getBean(EchoMqTemplate.class).enqueueAll(QUEUE, List.of("pair", "pair"));
			assertThat(this.handler.pair.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
				.as("two jobs running at once")
				.isTrue();
			await().atMost(TIMEOUT).until(() -> container.getCompletedCount() == 3);
			await().atMost(TIMEOUT).until(() -> container.inFlight() == 0);
			assertThat(container.runs().latest()).isEmpty();
		});
	}

	@Test
	void aCompletionSentAgainThatFindsTheRowRetiredByALaterRunIsNotCountedAsApplied() {
		runWithLongLease((context, jobs, container) -> {
			// the test claims for the container, as its poller and its completions do
			container.stop();
			JobId id = context.getBean(EchoMqTemplate.class).enqueue(QUEUE, "claimed by the test");
			LeasedJob first = leaseOne(container);
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				probe.template()
					.opsForZSet()
					.add(jobs.keyspace().queueKey(QUEUE, KeyType.ACTIVE.suffix()), id.toString(), 1);
				assertThat(jobs.upkeep().reap(QUEUE, 10).requeued()).isOne();
				LeasedJob second = leaseOne(container);
				assertThat(second.claimed().token()).isNotEqualTo(first.claimed().token());
				second.complete(Duration.ZERO);
				assertThat(probe.row(QUEUE, id)).isEmpty();
			}
			// the first run's batched completion had no clear reply: it is sent again
			// alone, finds
			// the row retired, and must not take the second run's completion for its own
			first.completed(null, Duration.ZERO);
			assertThat(container.getCompletedCount()).isOne();
			assertThat(container.getStaleCount()).isOne();
		});
	}

	private static LeasedJob leaseOne(QueueListenerContainer container) {
		ContainerClaims claims = container.claims();
		return claims.lease(claims.claim(1).jobs()).get(0);
	}

	/**
	 * Run the test in a context whose lease is long enough that the keeper does not renew
	 * it while the test lets it lapse.
	 */
	private void runWithLongLease(ContainerTest test) {
		ListenerTestSupport.runner(server, this.prefix)
			.withBean(Reruns.class, () -> this.handler)
			.withPropertyValues("echomq.listener.lease=60s")
			.run((context) -> test.run(context, context.getBean(Engine.class),
					context.getBean(EchoJobListenerRegistry.class).getContainer(QUEUE)));
	}

	@FunctionalInterface
	interface ContainerTest {

		void run(AssertableApplicationContext context, Engine jobs, QueueListenerContainer container) throws Exception;

	}

	static class Reruns {

		final AtomicInteger runs = new AtomicInteger();

		final CountDownLatch firstStarted = new CountDownLatch(1);

		final CountDownLatch firstMayReturn = new CountDownLatch(1);

		final CountDownLatch pair = new CountDownLatch(2);

		@EchoJob(queue = QUEUE, concurrency = "2")
		void handle(String payload) throws InterruptedException {
			if (payload.equals("pair")) {
				this.pair.countDown();
				this.pair.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
				return;
			}
			if (this.runs.incrementAndGet() == 1) {
				this.firstStarted.countDown();
				this.firstMayReturn.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}

	}

}
