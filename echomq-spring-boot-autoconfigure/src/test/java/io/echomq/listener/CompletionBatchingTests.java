package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of batched completions: a busy container records every completion, once, from the
 * completion thread its id belongs to, and a stop waits for completions still on their
 * way.
 *
 * @author EchoMQ
 */
class CompletionBatchingTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void everyCompletionOfABusyContainerIsRecordedOnceByTheCompletionThreadItsIdBelongsTo() {
		runner().run((context) -> {
			int count = 2_000;
			List<JobId> ids = enqueueBusy(context, count);
			BusyListener listener = context.getBean(BusyListener.class);
			CompletionThreads events = context.getBean(CompletionThreads.class);
			await().atMost(TIMEOUT).until(() -> events.completed.get() == count);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("busy");
			await().atMost(TIMEOUT).until(() -> container.inFlight() == 0);
			assertThat(listener.handled.get()).isEqualTo(count);
			assertThat(container.getCompletedCount()).isEqualTo(count);
			assertThat(container.getStaleCount()).isZero();
			assertThat(container.getUnrecordedCount()).isZero();
			assertThat(container.runs().latest()).as("runs whose outcome is recorded are forgotten").isEmpty();
			// each job's completion is sent by the thread its id belongs to, so a
			// job's completions
			// from two runs can never be sent side by side; both threads take their
			// share
			assertThat(events.threads).hasSize(count)
				.allSatisfy((id, thread) -> assertThat(thread)
					.isEqualTo("echomq-acks-busy-" + (CompletionBatcher.senderOf(id) + 1)));
			assertThat(Set.copyOf(events.threads.values())).hasSize(CompletionBatcher.THREADS);
			// with a backlog, the completions' round trips claim the next jobs for
			// the slots they free
			assertThat(container.claims().claimedWithCompletions()).isGreaterThan(count / 4);
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				assertThat(probe.metrics("busy")).containsEntry("completed", Integer.toString(count));
				assertThat(probe.members("busy", KeyType.PENDING)).isEmpty();
				assertThat(probe.members("busy", KeyType.ACTIVE)).isEmpty();
				assertThat(probe.row("busy", ids.get(0))).isEmpty();
				assertThat(probe.row("busy", ids.get(count - 1))).isEmpty();
			}
		});
	}

	@Test
	void stopWaitsForCompletionsOnTheirWay() {
		runner().run((context) -> {
			int count = 500;
			enqueueBusy(context, count);
			BusyListener listener = context.getBean(BusyListener.class);
			await().atMost(TIMEOUT).until(() -> listener.handled.get() >= count / 2);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("busy");
			container.stop();
			// whatever a handler finished before the stop returned is recorded,
			// nothing is left active
			assertThat(container.inFlight()).isZero();
			assertThat(container.getCompletedCount()).isEqualTo(listener.handled.get());
			assertThat(container.runs().latest()).isEmpty();
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				assertThat(probe.members("busy", KeyType.ACTIVE)).isEmpty();
				assertThat(probe.metrics("busy")).containsEntry("completed",
						Long.toString(container.getCompletedCount()));
				assertThat(probe.members("busy", KeyType.PENDING)).hasSize(count - listener.handled.get());
			}
		});
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(BusyListener.class, CompletionThreads.class);
	}

	private static List<JobId> enqueueBusy(ApplicationContext context, int count) {
		return context.getBean(EchoMqTemplate.class)
			.enqueueAll("busy", IntStream.range(0, count).mapToObj(Integer::toString).toList());
	}

	static class BusyListener {

		final AtomicInteger handled = new AtomicInteger();

		@EchoJob(queue = "busy", concurrency = "16")
		void handle(String payload) {
			this.handled.incrementAndGet();
		}

	}

	static class CompletionThreads implements JobEventListener {

		final AtomicInteger completed = new AtomicInteger();

		final Map<JobId, String> threads = new ConcurrentHashMap<>();

		@Override
		public void onCompleted(ReceivedJob job, Duration duration) {
			this.threads.put(job.id(), Thread.currentThread().getName());
			this.completed.incrementAndGet();
		}

	}

}
