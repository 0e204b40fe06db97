package io.echomq;

import java.time.Duration;

import io.echomq.core.CancelResult;
import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * Hears of the cancels, pauses and resumes made through an {@link EchoMqAdmin}, after
 * each was written. What it throws is logged, never rethrown.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see EchoMqAdmin
 */
public interface ControlListener {

	/**
	 * Called after a cancel.
	 * @param queue the queue
	 * @param id the job id
	 * @param result what the cancel did
	 */
	default void onCancel(String queue, JobId id, CancelResult result) {
	}

	/**
	 * Called after a cluster-wide pause.
	 * @param queue the queue
	 * @param duration how long, or {@code null} until resumed
	 * @param changed whether the pause flag changed
	 */
	default void onPause(String queue, @Nullable Duration duration, boolean changed) {
	}

	/**
	 * Called after a resume.
	 * @param queue the queue
	 * @param changed whether the queue was paused
	 */
	default void onResume(String queue, boolean changed) {
	}

}
