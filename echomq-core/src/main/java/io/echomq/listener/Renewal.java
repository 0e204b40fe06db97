package io.echomq.listener;

import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

/**
 * The handle a {@link LeaseKeeper} hands a {@link LeasedJob} it watches: the job stops
 * its renewals and its timeout through it, without calling the keeper back; the keeper
 * drops a stopped handle at its next sweep.
 *
 * @author EchoMQ
 */
final class Renewal {

	private final LeasedJob job;

	/** When the lease is next renewed ({@link System#nanoTime()}); the keeper's alone. */
	private long next;

	private volatile boolean stopped;

	private volatile @Nullable ScheduledFuture<?> deadline;

	Renewal(LeasedJob job, long next) {
		this.job = job;
		this.next = next;
	}

	LeasedJob job() {
		return this.job;
	}

	long next() {
		return this.next;
	}

	void next(long nanoTime) {
		this.next = nanoTime;
	}

	void deadline(ScheduledFuture<?> deadline) {
		this.deadline = deadline;
		if (this.stopped) {
			deadline.cancel(false);
		}
	}

	/**
	 * Stop renewing the lease (the job settled, was released, lost its lease or timed
	 * out).
	 */
	void stop() {
		this.stopped = true;
	}

	/**
	 * Stop the timeout timer, if any.
	 */
	void stopTimer() {
		ScheduledFuture<?> current = this.deadline;
		if (current != null) {
			current.cancel(false);
		}
	}

	boolean isStopped() {
		return this.stopped;
	}

}
