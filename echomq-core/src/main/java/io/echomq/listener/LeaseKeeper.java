package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

import io.echomq.core.TransitionResult;
import io.echomq.support.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Renews the leases of running jobs every third of the lease, on one scheduler thread
 * shared by all containers of a factory. A renewal that comes back stale marks the job
 * lost; one that fails (Redis unreachable) is tried again on the next tick.
 *
 * @author EchoMQ
 */
final class LeaseKeeper implements AutoCloseable {

	private static final LogAccessor logger = new LogAccessor(LeaseKeeper.class);

	private static final Duration MIN_INTERVAL = Duration.ofMillis(10);

	private final ReentrantLock lock = new ReentrantLock();

	private final RateLimitedLog failures = new RateLimitedLog(logger, Duration.ofSeconds(10));

	private @Nullable ThreadPoolTaskScheduler scheduler;

	void watch(InFlightJob job) {
		Duration interval = job.configuredLease().dividedBy(3);
		if (interval.compareTo(MIN_INTERVAL) < 0) {
			interval = MIN_INTERVAL;
		}
		job.renewal(scheduler().scheduleWithFixedDelay(() -> renew(job), Instant.now().plus(interval), interval));
	}

	private void renew(InFlightJob job) {
		if (!job.isRunning()) {
			job.stopRenewing();
			return;
		}
		try {
			TransitionResult result = job.container().jobs().extend(job.queue(), job.id(), job.attempt(), job.lease());
			if (result.isStale()) {
				job.container().leaseLost(job, result.describe());
			}
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
