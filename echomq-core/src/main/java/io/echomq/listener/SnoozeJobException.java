package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.EchoMqException;
import io.echomq.core.EnqueueOptions;

/**
 * Thrown by a handler to run the job again after {@code delay} without spending an
 * attempt: the job goes back to the schedule, its attempt budget untouched, and is never
 * dead-lettered for it. For work that is not ready yet (a resource still being prepared,
 * a time window not open), not for failures.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class SnoozeJobException extends EchoMqException {

	private final Duration delay;

	/**
	 * Create a new exception.
	 * @param delay how long to wait before the next attempt, not negative
	 * @param reason why, kept on the row as its last error
	 */
	public SnoozeJobException(Duration delay, String reason) {
		super(reason);
		if (delay == null || delay.isNegative()) {
			throw new IllegalArgumentException("Snooze delay must not be negative, was " + delay);
		}
		EnqueueOptions.checkDelay(delay);
		this.delay = delay;
	}

	/**
	 * Create a new exception.
	 * @param delay how long to wait before the next attempt, not negative
	 */
	public SnoozeJobException(Duration delay) {
		this(delay, "snoozed for " + delay);
	}

	/**
	 * Return how long to wait before the next attempt.
	 * @return the delay
	 */
	public Duration getDelay() {
		return this.delay;
	}

}
