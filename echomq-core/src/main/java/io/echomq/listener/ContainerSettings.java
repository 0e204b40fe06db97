package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.FlowLimits;

import org.jspecify.annotations.Nullable;

import org.springframework.core.retry.RetryPolicy;
import org.springframework.util.Assert;

/**
 * The effective settings of one container, every inherited value resolved.
 *
 * @param id the listener id
 * @param queue the queue
 * @param concurrency how many handlers run at once
 * @param lease the lease each claim takes, renewed every third of it
 * @param maxAttempts the listener's cap on attempts, or {@code null} for none
 * @param backoff the retry backoff
 * @param autoStartup whether the container starts with the registry
 * @param idleWait the longest an idle poller blocks on the wake list
 * @param shutdownTimeout how long a stop waits for in-flight handlers
 * @param retryPolicy which failures are retried ({@link RetryPolicy#shouldRetry}); the
 * others dead-letter the job at once
 * @param timeout how long a handler may run before it is interrupted and the attempt
 * fails, or {@code null} for no limit (a job's own timeout wins)
 * @param limits the queue's cluster-wide flow limits, applied by every claim
 * @param claimAhead how many jobs a busy container claims beyond its concurrency: they
 * wait for a worker, their lease renewed, so that a worker whose handler returns starts
 * the next job at once and claims and completions go in bigger batches
 * @author EchoMQ
 * @since 0.1.0
 */
public record ContainerSettings(String id, String queue, int concurrency, Duration lease, @Nullable Integer maxAttempts,
		BackoffPolicy backoff, boolean autoStartup, Duration idleWait, Duration shutdownTimeout,
		RetryPolicy retryPolicy, @Nullable Duration timeout, FlowLimits limits, int claimAhead) {

	/**
	 * Validate the settings.
	 * @param id the id
	 * @param queue the queue
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param maxAttempts the cap
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 * @param retryPolicy which failures are retried
	 * @param timeout the handler timeout
	 * @param limits the flow limits
	 * @param claimAhead the jobs claimed beyond the concurrency
	 */
	public ContainerSettings {
		Assert.hasText(id, "'id' must not be empty");
		Assert.hasText(queue, "'queue' must not be empty");
		Assert.isTrue(concurrency > 0, () -> "concurrency must be positive, was " + concurrency);
		Assert.isTrue(lease != null && lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		Assert.isTrue(maxAttempts == null || maxAttempts > 0, () -> "maxAttempts must be positive, was " + maxAttempts);
		Assert.notNull(backoff, "'backoff' must not be null");
		Assert.isTrue(idleWait != null && idleWait.toMillis() > 0,
				() -> "idleWait must be at least 1ms, was " + idleWait);
		Assert.isTrue(shutdownTimeout != null && !shutdownTimeout.isNegative(),
				() -> "shutdownTimeout must not be negative, was " + shutdownTimeout);
		Assert.notNull(retryPolicy, "'retryPolicy' must not be null");
		Assert.isTrue(timeout == null || timeout.toMillis() > 0, () -> "timeout must be at least 1ms, was " + timeout);
		Assert.notNull(limits, "'limits' must not be null");
		Assert.isTrue(claimAhead >= 0, () -> "claimAhead must not be negative, was " + claimAhead);
	}

	/**
	 * Create settings that claim as many jobs ahead as the concurrency.
	 * @param id the id
	 * @param queue the queue
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param maxAttempts the cap
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 * @param retryPolicy which failures are retried
	 * @param timeout the handler timeout
	 * @param limits the flow limits
	 */
	public ContainerSettings(String id, String queue, int concurrency, Duration lease, @Nullable Integer maxAttempts,
			BackoffPolicy backoff, boolean autoStartup, Duration idleWait, Duration shutdownTimeout,
			RetryPolicy retryPolicy, @Nullable Duration timeout, FlowLimits limits) {
		this(id, queue, concurrency, lease, maxAttempts, backoff, autoStartup, idleWait, shutdownTimeout, retryPolicy,
				timeout, limits, concurrency);
	}

	/**
	 * Create settings without flow limits.
	 * @param id the id
	 * @param queue the queue
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param maxAttempts the cap
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 * @param retryPolicy which failures are retried
	 * @param timeout the handler timeout
	 */
	public ContainerSettings(String id, String queue, int concurrency, Duration lease, @Nullable Integer maxAttempts,
			BackoffPolicy backoff, boolean autoStartup, Duration idleWait, Duration shutdownTimeout,
			RetryPolicy retryPolicy, @Nullable Duration timeout) {
		this(id, queue, concurrency, lease, maxAttempts, backoff, autoStartup, idleWait, shutdownTimeout, retryPolicy,
				timeout, FlowLimits.none());
	}

}
