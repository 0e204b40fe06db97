package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.inspect.JobView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The consume path end to end, without Spring Boot: a container built from an endpoint by
 * the container factory claims, runs and completes jobs (storing a returned result),
 * retries a failing handler and then dead-letters its job, completes many jobs each once
 * in batches, and never runs more handlers at once than its concurrency. Runs on every
 * server of {@link io.echomq.core.EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource
class QueueListenerContainerTests extends ContainerTestSupport {

	@Test
	void jobIsRunAndCompletedWithTheResultItsMethodReturns() throws Exception {
		Greeter greeter = new Greeter();
		QueueListenerContainer container = start(
				MethodJobHandler.create(greeter, Greeter.class.getMethod("greet", String.class), this.converter));
		JobId id = this.template.enqueue(this.queue, "ada");
		await().atMost(WAIT).until(() -> container.getCompletedCount() == 1);
		assertThat(greeter.names).containsExactly("ada");
		assertThat(this.template.result(this.queue, id, String.class)).isEqualTo("hello ada");
		assertThat(counter("completed")).isOne();
		assertThat(container.getStaleCount()).isZero();
		assertThat(container.getRetriedCount()).isZero();
		assertDrained();
	}

	@Test
	void failingHandlerIsRetriedThenDeadLettered() {
		List<Long> attempts = new CopyOnWriteArrayList<>();
		QueueListenerContainer container = start((job, context) -> {
			attempts.add(context.attempt());
			throw new IllegalStateException("fails on purpose, attempt " + context.attempt());
		}, ListenerSettings.builder().maxAttempts(3).build());
		JobId id = this.template.enqueue(this.queue, "doomed");
		await().atMost(WAIT).until(() -> stats().dead() == 1);
		assertThat(attempts).containsExactly(1L, 2L, 3L);
		assertThat(container.getRetriedCount()).isEqualTo(2);
		assertThat(container.getDeadCount()).isOne();
		assertThat(container.getCompletedCount()).isZero();
		JobView dead = this.inspector.job(this.queue, id);
		assertThat(dead).isNotNull();
		assertThat(dead.state()).isEqualTo(JobState.DEAD);
		assertThat(dead.attempts()).isEqualTo(3);
		assertThat(dead.lastError()).contains("fails on purpose, attempt 3");
		assertThat(counter("retried")).isEqualTo(2);
		assertThat(counter("dead")).isOne();
		assertDrained();
	}

	@Test
	void completionsOfManyJobsAreBatchedAndEachRecordedOnce() {
		int concurrency = 4;
		int jobs = 40;
		Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
		// the first handlers return together, so that their completions wait side by side
		CyclicBarrier together = new CyclicBarrier(concurrency);
		AtomicInteger first = new AtomicInteger();
		QueueListenerContainer container = start((job, context) -> {
			runs.computeIfAbsent(job.id().toString(), (key) -> new AtomicInteger()).incrementAndGet();
			if (first.getAndIncrement() < concurrency) {
				together.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}, ListenerSettings.builder().concurrency(concurrency).build());
		List<String> ids = new ArrayList<>();
		this.template.enqueueAll(this.queue, Collections.nCopies(jobs, "job")).forEach((id) -> ids.add(id.toString()));
		await().atMost(WAIT).until(() -> container.getCompletedCount() == jobs);
		assertThat(runs).containsOnlyKeys(ids);
		assertThat(runs.values()).allSatisfy((count) -> assertThat(count).hasValue(1));
		assertThat(counter("completed")).isEqualTo(jobs);
		assertThat(container.getStaleCount()).isZero();
		assertThat(container.getUnrecordedCount()).isZero();
		assertDrained();
	}

	@Test
	void neverRunsMoreHandlersAtOnceThanItsConcurrency() {
		int concurrency = 3;
		AtomicInteger running = new AtomicInteger();
		AtomicInteger peak = new AtomicInteger();
		CountDownLatch open = new CountDownLatch(1);
		QueueListenerContainer container = start((job, context) -> {
			peak.accumulateAndGet(running.incrementAndGet(), Math::max);
			try {
				open.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
			finally {
				running.decrementAndGet();
			}
		}, ListenerSettings.builder().concurrency(concurrency).build());
		for (int i = 0; i < 12; i++) {
			this.template.enqueue(this.queue, "job-" + i);
		}
		await().atMost(WAIT).until(() -> running.get() == concurrency);
		// with nine jobs still pending, no further handler starts while these hold their
		// slots
		await().during(Duration.ofMillis(600))
			.atMost(Duration.ofSeconds(5))
			.until(() -> running.get() == concurrency && container.inFlight() <= 2 * concurrency);
		open.countDown();
		await().atMost(WAIT).until(() -> container.getCompletedCount() == 12);
		assertThat(peak).hasValue(concurrency);
		assertDrained();
	}

	/**
	 * An {@code @EchoJob}-style method: its return value is the job's result.
	 */
	public static class Greeter {

		final List<String> names = new CopyOnWriteArrayList<>();

		public String greet(String name) {
			this.names.add(name);
			return "hello " + name;
		}

	}

}
