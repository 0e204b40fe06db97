package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

import io.echomq.support.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Renews the leases of running jobs every third of the lease, and times out handlers that
 * run past their timeout, on one scheduler thread
 * shared by all containers of a factory. The renewal itself is the job's own
 * ({@link LeasedJob#renew()}: a stale reply marks it lost); one that fails (Redis
 * unreachable) is tried again on the next tick.
 *
 * @author EchoMQ
 */
final class LeaseKeeper implements AutoCloseable {

	private static final LogAccessor logger = new LogAccessor(LeaseKeeper.class);

	private final ReentrantLock lock = new ReentrantLock();

	private final RateLimitedLog failures = new RateLimitedLog(logger, Duration.ofSeconds(10));

	private @Nullable ThreadPoolTaskScheduler scheduler;

	void watch(LeasedJob job) {
		Duration interval = job.renewalInterval();
		ThreadPoolTaskScheduler scheduler = scheduler();
		job.renewal(scheduler.scheduleWithFixedDelay(() -> renew(job), Instant.now().plus(interval), interval));
		Duration timeout = job.timeout();
		if (timeout != null) {
			job.deadline(scheduler.schedule(job::timeOut, Instant.now().plus(timeout)));
		}
	}

	private void renew(LeasedJob job) {
		try {
			job.renew();
		}
		catch (Throwable ex) {
			this.failures.warn(ex, () -> "Cannot renew the lease of " + job + "; trying again");
		}
	}

	private ThreadPoolTaskScheduler scheduler() {
		this.lock.lock();
		try {
			if (this.scheduler == null) {
				ThreadPoolTaskScheduler created = new ThreadPoolTaskScheduler();
				created.setPoolSize(1);
				created.setThreadNamePrefix("echomq-lease-");
				created.setDaemon(true);
				created.setRemoveOnCancelPolicy(true);
				created.setWaitForTasksToCompleteOnShutdown(false);
				created.initialize();
				this.scheduler = created;
			}
			return this.scheduler;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void close() {
		this.lock.lock();
		try {
			if (this.scheduler != null) {
				this.scheduler.shutdown();
				this.scheduler = null;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

}
