package io.echomq.listener;

import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

/**
 * The handle a {@link LeaseKeeper} hands each job it watches: the job stops its renewals
 * and its timeout through it, without calling the keeper back; the keeper drops a job
 * whose handle is stopped at its next sweep.
 *
 * @author EchoMQ
 */
final class Renewal {

	private volatile boolean stopped;

	private volatile @Nullable ScheduledFuture<?> deadline;

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
