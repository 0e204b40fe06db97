package io.echomq.listener;

import java.time.Duration;
import java.util.List;
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
 * Tests of graceful shutdown: in-flight jobs finish within the timeout, or go back to
 * pending.
 *
 * @author EchoMQ
 */
class GracefulShutdownTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void unfinishedJobsAreReleasedToPendingWhenTheTimeoutPasses() {
		ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(BlockedListener.class)
			.withPropertyValues("echomq.shutdown.timeout=300ms")
			.run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				BlockedListener listener = context.getBean(BlockedListener.class);
				JobId first = template.enqueue("blocked", "a");
				JobId second = template.enqueue("blocked", "b");
				assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("blocked");
				assertThat(container.inFlight()).isEqualTo(2);
				long start = System.nanoTime();
				context.close();
				long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
				assertThat(closeMillis).isLessThan(5000);
				assertThat(container.getReleasedCount()).isEqualTo(2);
				assertThat(container.isRunning()).isFalse();
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					assertThat(probe.members("blocked", KeyType.PENDING)).containsExactlyInAnyOrder(first.toString(),
							second.toString());
					assertThat(probe.members("blocked", KeyType.ACTIVE)).isEmpty();
					for (JobId id : List.of(first, second)) {
						assertThat(probe.row("blocked", id)).containsEntry("state", "pending")
							.containsEntry("attempts", "1")
							.containsEntry("released", "1")
							.containsEntry("max_attempts", "3");
					}
				}
				// the stragglers were interrupted and their outcome was not written
				await().atMost(Duration.ofSeconds(5)).until(() -> listener.interrupted.get() == 2);
			});
	}

	@Test
	void jobsThatFinishWithinTheTimeoutAreCompleted() {
		ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(QuickListener.class)
			.withPropertyValues("echomq.shutdown.timeout=5s")
			.run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				QuickListener listener = context.getBean(QuickListener.class);
				JobId first = template.enqueue("quick", "a");
				JobId second = template.enqueue("quick", "b");
				assertThat(listener.started.await(10, TimeUnit.SECONDS)).isTrue();
				context.close();
				assertThat(listener.finished.get()).isEqualTo(2);
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					assertThat(probe.row("quick", first)).isEmpty();
					assertThat(probe.row("quick", second)).isEmpty();
					assertThat(probe.members("quick", KeyType.ACTIVE)).isEmpty();
					assertThat(probe.members("quick", KeyType.PENDING)).isEmpty();
					assertThat(probe.metrics("quick")).containsEntry("completed", "2");
				}
			});
	}

	static class BlockedListener {

		final CountDownLatch started = new CountDownLatch(2);

		final CountDownLatch never = new CountDownLatch(1);

		final AtomicInteger interrupted = new AtomicInteger();

		@EchoJob(queue = "blocked", concurrency = "2")
		void handle(String payload) {
			this.started.countDown();
			try {
				this.never.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				this.interrupted.incrementAndGet();
			}
		}

	}

	static class QuickListener {

		final CountDownLatch started = new CountDownLatch(2);

		final AtomicInteger finished = new AtomicInteger();

		@EchoJob(queue = "quick", concurrency = "2")
		void handle(String payload) throws InterruptedException {
			this.started.countDown();
			// some work that outlasts the close call but not the timeout
			new CountDownLatch(1).await(500, TimeUnit.MILLISECONDS);
			this.finished.incrementAndGet();
		}

	}

}
