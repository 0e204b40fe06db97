package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A busy container claims as many jobs ahead as its concurrency: they wait for a worker
 * with their lease renewed, at most the concurrency of handlers run at once, a handler's
 * timeout counts from its start, and a stop hands the jobs that wait back to pending at
 * once.
 *
 * @author EchoMQ
 */
class ClaimAheadTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void jobsClaimedAheadWaitForAWorkerAndAStopHandsThemBackAtOnce() {
		Blocked handler = new Blocked();
		ListenerTestSupport.runner(server, this.prefix)
			.withBean(Blocked.class, () -> handler)
			.withPropertyValues("echomq.shutdown.timeout=20s")
			.run((context) -> {
				List<JobId> ids = context.getBean(EchoMqTemplate.class).enqueueAll("ahead", List.of(1, 2, 3, 4, 5, 6));
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("ahead");
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					await().atMost(TIMEOUT).until(() -> probe.members("ahead", KeyType.ACTIVE).size() == 4);
					assertThat(container.inFlight()).isEqualTo(4);
					assertThat(handler.started.get()).as("handlers at once, at most the concurrency").isEqualTo(2);
					CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);
					// the two jobs claimed ahead are back in pending while both handlers
					// still block, long before the shutdown timeout
					await().atMost(Duration.ofSeconds(5))
						.until(() -> probe.members("ahead", KeyType.ACTIVE).size() == 2);
					assertThat(probe.members("ahead", KeyType.PENDING)).hasSize(4);
					assertThat(container.getReleasedCount()).isEqualTo(2);
					Set<String> running = probe.members("ahead", KeyType.ACTIVE);
					handler.mayReturn.countDown();
					closed.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
					assertThat(handler.started.get()).isEqualTo(2);
					assertThat(container.getCompletedCount()).isEqualTo(2);
					assertThat(probe.members("ahead", KeyType.ACTIVE)).isEmpty();
					assertThat(probe.members("ahead", KeyType.PENDING)).hasSize(4).doesNotContainAnyElementsOf(running);
					for (JobId id : ids) {
						if (!running.contains(id.toString())) {
							assertThat(probe.row("ahead", id)).containsEntry("state", "pending");
						}
					}
				}
			});
	}

	@Test
	void aJobClaimedAheadKeepsItsLeaseAndItsHandlerTimeoutCountsFromItsStart() {
		Slow handler = new Slow();
		ListenerTestSupport.runner(server, this.prefix)
			.withBean(Slow.class, () -> handler)
			.withPropertyValues("echomq.listener.lease=600ms")
			.run((context) -> {
				List<JobId> ids = context.getBean(EchoMqTemplate.class).enqueueAll("slow", List.of(1, 2));
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("slow");
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					// the second job is claimed while the first one's handler runs
					await().atMost(TIMEOUT).until(() -> probe.members("slow", KeyType.ACTIVE).size() == 2);
					assertThat(handler.runs.get()).isOne();
					await().atMost(TIMEOUT).until(() -> container.getCompletedCount() == 2);
					// each ran once, within its timeout: the wait of the second one,
					// longer
					// than its lease and than what is left of its timeout, counted for
					// neither
					assertThat(handler.runs.get()).isEqualTo(2);
					assertThat(container.getStaleCount()).isZero();
					assertThat(container.getRetriedCount()).isZero();
					assertThat(probe.metrics("slow")).containsEntry("completed", "2");
					for (JobId id : ids) {
						assertThat(probe.row("slow", id)).isEmpty();
					}
				}
			});
	}

	@Test
	void aPauseHandsBackTheJobsClaimedAheadAndRunningHandlersGoOn() {
		Blocked handler = new Blocked();
		ListenerTestSupport.runner(server, this.prefix).withBean(Blocked.class, () -> handler).run((context) -> {
			context.getBean(EchoMqTemplate.class).enqueueAll("ahead", List.of(1, 2, 3, 4, 5, 6));
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("ahead");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(TIMEOUT).until(() -> probe.members("ahead", KeyType.ACTIVE).size() == 4);
				container.pause();
				assertThat(probe.members("ahead", KeyType.ACTIVE)).hasSize(2);
				assertThat(probe.members("ahead", KeyType.PENDING)).hasSize(4);
				assertThat(container.getReleasedCount()).isEqualTo(2);
				handler.mayReturn.countDown();
				await().atMost(TIMEOUT).until(() -> container.getCompletedCount() == 2 && container.inFlight() == 0);
				assertThat(handler.started.get()).isEqualTo(2);
				container.resume();
				await().atMost(TIMEOUT).until(() -> container.getCompletedCount() == 6);
			}
		});
	}

	@Test
	void aListenerSetToClaimNoneAheadClaimsOnlyForFreeHandlers() {
		Blocked handler = new Blocked();
		ListenerTestSupport.runner(server, this.prefix)
			.withBean(Blocked.class, () -> handler)
			.withPropertyValues("echomq.listener.claim-ahead=0")
			.run((context) -> {
				context.getBean(EchoMqTemplate.class).enqueueAll("ahead", List.of(1, 2, 3, 4));
				assertThat(
						context.getBean(EchoJobListenerRegistry.class).getContainer("ahead").getSettings().claimAhead())
					.isZero();
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					await().atMost(TIMEOUT).until(() -> handler.started.get() == 2);
					await().during(Duration.ofMillis(300))
						.atMost(TIMEOUT)
						.until(() -> probe.members("ahead", KeyType.ACTIVE).size() == 2);
					handler.mayReturn.countDown();
					await().atMost(TIMEOUT)
						.until(() -> probe.members("ahead", KeyType.PENDING).isEmpty()
								&& probe.members("ahead", KeyType.ACTIVE).isEmpty());
				}
			});
	}

	static class Blocked {

		final AtomicInteger started = new AtomicInteger();

		final CountDownLatch mayReturn = new CountDownLatch(1);

		@EchoJob(queue = "ahead", concurrency = "2")
		void handle(int payload) {
			this.started.incrementAndGet();
			try {
				this.mayReturn.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	static class Slow {

		final AtomicInteger runs = new AtomicInteger();

		@EchoJob(queue = "slow", concurrency = "1", timeout = "1200ms")
		void handle(int payload) throws InterruptedException {
			this.runs.incrementAndGet();
			// longer than the lease, within the timeout
			Thread.sleep(900);
		}

	}

}
