package io.echomq.test.server;

import java.time.Duration;

/**
 * A point in time by which a polling loop must have succeeded.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class Deadline {

	private final Duration timeout;

	private final long deadlineNanos;

	private Deadline(Duration timeout) {
		this.timeout = timeout;
		this.deadlineNanos = System.nanoTime() + timeout.toNanos();
	}

	static Deadline after(Duration timeout) {
		return new Deadline(timeout);
	}

	Duration timeout() {
		return this.timeout;
	}

	boolean hasExpired() {
		return remainingNanos() <= 0;
	}

	Duration remaining() {
		return Duration.ofNanos(Math.max(0, remainingNanos()));
	}

	/**
	 * Wait for one polling interval, or less if the deadline comes first.
	 * @param interval the polling interval
	 */
	void pause(Duration interval) {
		long nanos = Math.min(interval.toNanos(), remainingNanos());
		if (nanos <= 0) {
			return;
		}
		try {
			Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while polling", ex);
		}
	}

	private long remainingNanos() {
		return this.deadlineNanos - System.nanoTime();
	}

}
