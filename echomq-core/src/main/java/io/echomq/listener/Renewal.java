package io.echomq.listener;

import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

/**
 * The handle a {@link LeaseKeeper} hands each job it watches: the job stops its renewals
 * and its timeout through it, without calling the keeper back: stopping the handle takes
 * it out of the keeper's map of watched jobs at once (the keeper also drops a stopped
 * handle it finds as it sweeps).
 *
 * @author EchoMQ
 */
final class Renewal {

	private final Map<Renewal, ?> watched;

	private volatile boolean stopped;

	private volatile @Nullable ScheduledFuture<?> deadline;

	Renewal(Map<Renewal, ?> watched) {
		this.watched = watched;
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
		this.watched.remove(this);
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
