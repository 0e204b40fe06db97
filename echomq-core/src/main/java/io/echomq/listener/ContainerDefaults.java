package io.echomq.listener;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What every container of a factory inherits when neither its listener nor its queue sets
 * a value.
 *
 * @param concurrency how many handlers run at once
 * @param lease the lease each claim takes, renewed while the handler runs
 * @param backoff the retry backoff
 * @param autoStartup whether containers start with the registry
 * @param idleWait the longest an idle poller blocks on its wake-up signal
 * @param shutdownTimeout how long a stop waits for in-flight handlers before releasing
 * their jobs
 * @param retryFor the only exceptions retried (empty: every exception not in
 * {@code noRetryFor})
 * @param noRetryFor the exceptions that dead-letter a job at once
 * @param timeout how long a handler may run before it is interrupted and the attempt
 * fails, or {@code null} for no limit
 * @param claimAhead how many jobs a busy container claims beyond its concurrency, to wait
 * for a worker; {@code null} for as many as its concurrency
 * @author EchoMQ
 * @since 0.1.0
 */
public record ContainerDefaults(int concurrency, Duration lease, BackoffPolicy backoff, boolean autoStartup,
		Duration idleWait, Duration shutdownTimeout, List<Class<? extends Throwable>> retryFor,
		List<Class<? extends Throwable>> noRetryFor, @Nullable Duration timeout, @Nullable Integer claimAhead) {

	/**
	 * Validate the defaults.
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 * @param retryFor the only exceptions retried
	 * @param noRetryFor the exceptions never retried
	 * @param timeout the handler timeout
	 * @param claimAhead the jobs claimed beyond the concurrency
	 */
	public ContainerDefaults {
		Assert.isTrue(concurrency > 0, () -> "concurrency must be positive, was " + concurrency);
		Assert.isTrue(lease != null && lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		Assert.notNull(backoff, "'backoff' must not be null");
		Assert.isTrue(idleWait != null && idleWait.toMillis() > 0,
				() -> "idleWait must be at least 1ms, was " + idleWait);
		Assert.isTrue(shutdownTimeout != null && !shutdownTimeout.isNegative(),
				() -> "shutdownTimeout must not be negative, was " + shutdownTimeout);
		retryFor = List.copyOf(retryFor);
		noRetryFor = List.copyOf(noRetryFor);
		Assert.isTrue(timeout == null || timeout.toMillis() > 0, () -> "timeout must be at least 1ms, was " + timeout);
		Assert.isTrue(claimAhead == null || claimAhead >= 0,
				() -> "claimAhead must not be negative, was " + claimAhead);
	}

	/**
	 * Create defaults that claim as many jobs ahead as the concurrency.
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 * @param retryFor the only exceptions retried
	 * @param noRetryFor the exceptions never retried
	 * @param timeout the handler timeout
	 */
	public ContainerDefaults(int concurrency, Duration lease, BackoffPolicy backoff, boolean autoStartup,
			Duration idleWait, Duration shutdownTimeout, List<Class<? extends Throwable>> retryFor,
			List<Class<? extends Throwable>> noRetryFor, @Nullable Duration timeout) {
		this(concurrency, lease, backoff, autoStartup, idleWait, shutdownTimeout, retryFor, noRetryFor, timeout, null);
	}

	/**
	 * Create defaults that retry every exception and set no handler timeout.
	 * @param concurrency the concurrency
	 * @param lease the lease
	 * @param backoff the backoff
	 * @param autoStartup whether to start automatically
	 * @param idleWait the idle wait
	 * @param shutdownTimeout the drain timeout
	 */
	public ContainerDefaults(int concurrency, Duration lease, BackoffPolicy backoff, boolean autoStartup,
			Duration idleWait, Duration shutdownTimeout) {
		this(concurrency, lease, backoff, autoStartup, idleWait, shutdownTimeout, List.of(), List.of(), null);
	}

	/**
	 * Return the built-in defaults: concurrency 4, a 30 s lease, backoff from 1 s
	 * doubling to 5 min with 20% jitter, auto-startup, a 10 s idle wait, a 10 s drain,
	 * and every exception retried.
	 * @return the defaults
	 */
	public static ContainerDefaults defaults() {
		return new ContainerDefaults(4, Duration.ofSeconds(30), BackoffPolicy.defaults(), true, Duration.ofSeconds(10),
				Duration.ofSeconds(10));
	}

}
