package io.echomq.listener;

import java.time.Duration;

/**
 * Thrown by a handler when the remote side it calls rate-limited it (an HTTP 429 with
 * {@code Retry-After}, a quota error): the job runs again after {@code retryAfter}
 * without spending an attempt, as a {@linkplain SnoozeJobException snooze} does, and is
 * never dead-lettered for it.
 * <p>
 * With {@code pauseQueue} the whole queue is also paused cluster-wide for
 * {@code retryAfter} (a timed pause flag in the queue's keyspace, which expires on server
 * time), so that no node keeps hitting the limited remote side meanwhile. A timed pause
 * never shortens a longer one, nor one in place until resumed.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class RateLimitedJobException extends SnoozeJobException {

	private final boolean pauseQueue;

	/**
	 * Create a new exception that reschedules the job only.
	 * @param retryAfter how long the remote side asked to wait, at least 1 ms
	 */
	public RateLimitedJobException(Duration retryAfter) {
		this(retryAfter, false);
	}

	/**
	 * Create a new exception.
	 * @param retryAfter how long the remote side asked to wait, at least 1 ms
	 * @param pauseQueue whether to pause the queue cluster-wide for as long
	 */
	public RateLimitedJobException(Duration retryAfter, boolean pauseQueue) {
		super(checked(retryAfter), "rate limited, retry after " + retryAfter + (pauseQueue ? " (queue paused)" : ""));
		this.pauseQueue = pauseQueue;
	}

	private static Duration checked(Duration retryAfter) {
		if (retryAfter == null || retryAfter.toMillis() < 1) {
			throw new IllegalArgumentException("Rate-limited retry-after must be at least 1ms, was " + retryAfter);
		}
		return retryAfter;
	}

	/**
	 * Return how long the remote side asked to wait.
	 * @return the delay before the job runs again
	 */
	public Duration getRetryAfter() {
		return getDelay();
	}

	/**
	 * Return whether the queue is paused cluster-wide for {@link #getRetryAfter()}.
	 * @return {@code true} to pause the queue
	 */
	public boolean isPauseQueue() {
		return this.pauseQueue;
	}

}
