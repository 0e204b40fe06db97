package io.echomq.listener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.echomq.core.JobId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leases, without Spring Boot: the lease keeper renews a running job's lease, so a job
 * that runs for several leases is never reaped; a worker whose lease was lost (the lease
 * ran out, the job was reaped and claimed again) learns it, and its outcome is refused as
 * stale and changes nothing (the attempts counter fences it). Runs on every server of
 * {@link io.echomq.core.EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource
class LeaseFencingTests extends ContainerTestSupport {

	@Test
	void leaseKeeperRenewsALongJobSoThatItIsNotReaped() {
		CountDownLatch finish = new CountDownLatch(1);
		List<Long> attempts = new CopyOnWriteArrayList<>();
		AtomicReference<JobContext> running = new AtomicReference<>();
		QueueListenerContainer container = start((job, context) -> {
			attempts.add(context.attempt());
			running.set(context);
			finish.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}, ListenerSettings.builder().concurrency(1).build());
		JobId id = this.template.enqueue(this.queue, "long");
		await().atMost(WAIT).until(() -> running.get() != null && deadline(id) != null);
		double first = deadline(id);
		// past two more leases: the job outlived its first lease by more than a lease
		await().atMost(WAIT).until(() -> {
			assertThat(reap().requeued()).as("jobs reaped").isZero();
			Double deadline = deadline(id);
			return deadline != null && deadline > first + 2 * LEASE.toMillis();
		});
		assertThat(running.get().isLeaseLost()).isFalse();
		finish.countDown();
		await().atMost(WAIT).until(() -> container.getCompletedCount() == 1);
		assertThat(attempts).containsExactly(1L);
		assertThat(container.getStaleCount()).isZero();
		assertThat(counter("reaped")).isZero();
		assertThat(counter("completed")).isOne();
		assertDrained();
	}

	@Test
	void outcomeOfAWorkerWhoseLeaseWasLostIsStaleAndChangesNothing() {
		CountDownLatch finishFirst = new CountDownLatch(1);
		List<Long> attempts = new CopyOnWriteArrayList<>();
		AtomicReference<JobContext> first = new AtomicReference<>();
		QueueListenerContainer container = start((job, context) -> {
			attempts.add(context.attempt());
			if (context.attempt() == 1) {
				first.set(context);
				finishFirst.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}, ListenerSettings.builder().concurrency(2).build());
		JobId id = this.template.enqueue(this.queue, "contested");
		await().atMost(WAIT).until(() -> first.get() != null);
		// the first run's lease runs out: the job is reaped, claimed again and completed
		await().atMost(WAIT).until(() -> expireAndReap(id));
		await().atMost(WAIT).until(() -> container.getCompletedCount() == 1);
		assertThat(attempts).containsExactly(1L, 2L);
		await().atMost(WAIT).until(() -> first.get().isLeaseLost());
		finishFirst.countDown();
		await().atMost(WAIT).until(() -> container.inFlight() == 0);
		assertThat(container.getCompletedCount()).isOne();
		assertThat(container.getStaleCount()).isOne();
		assertThat(container.getRetriedCount()).isZero();
		assertThat(container.getDeadCount()).isZero();
		assertThat(counter("completed")).isOne();
		assertThat(counter("reaped")).isOne();
		assertThat(this.inspector.job(this.queue, id)).as("the row, retired once").isNull();
		assertDrained();
		assertThat(stats().dead()).isZero();
	}

}
