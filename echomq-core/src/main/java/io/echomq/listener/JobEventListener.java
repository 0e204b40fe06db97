package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.ReapResult;
import io.echomq.core.TransitionResult;

/**
 * Callbacks on what listener containers and the scheduler do, for metrics and tracing.
 * Every method defaults to doing nothing. Each {@code JobEventListener} bean is called,
 * in order; an exception thrown by one is logged and swallowed. Callbacks run on the
 * container's threads, so they must be quick.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface JobEventListener {

	/**
	 * Called on the worker thread before the handler runs.
	 * @param job the job
	 * @param wait how long the job waited between becoming claimable and being claimed
	 */
	default void onClaimed(ReceivedJob job, Duration wait) {
	}

	/**
	 * Called when a handler returned and the completion was recorded.
	 * @param job the job
	 * @param duration how long the handler ran
	 */
	default void onCompleted(ReceivedJob job, Duration duration) {
	}

	/**
	 * Called when a handler failed and the failure was recorded.
	 * @param job the job
	 * @param error what the handler threw
	 * @param result the transition: state {@code SCHEDULE} or {@code PENDING} when the
	 * job will be retried, {@code DEAD} when it was dead-lettered
	 */
	default void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
	}

	/**
	 * Called when a handler snoozed its job (threw a {@link SnoozeJobException}) and the
	 * job was put off without spending the attempt.
	 * @param job the job
	 * @param delay how long until it runs again
	 */
	default void onSnoozed(ReceivedJob job, Duration delay) {
	}

	/**
	 * Called when this worker lost the lease on a job: its outcome is not recorded.
	 * @param job the job
	 * @param result the stale transition, with its {@link TransitionResult#reason()
	 * reason} and detail
	 */
	default void onStale(ReceivedJob job, TransitionResult result) {
	}

	/**
	 * Called when a job was handed back to pending unfinished (on a stop, or a pause that
	 * caught a claim in flight), without spending an attempt.
	 * @param job the job
	 */
	default void onReleased(ReceivedJob job) {
	}

	/**
	 * Called when a job this worker had claimed was cancelled while it ran: the handler
	 * was asked to stop (its thread interrupted) and its outcome discarded; the job is
	 * retired.
	 * @param job the job
	 */
	default void onCancelled(ReceivedJob job) {
	}

	/**
	 * Called after a reap tick moved expired leases of a queue.
	 * @param queue the queue
	 * @param result what moved
	 */
	default void onReaped(String queue, ReapResult result) {
	}

	/**
	 * Called after a promote tick moved due scheduled jobs of a queue to pending.
	 * @param queue the queue
	 * @param count how many moved
	 */
	default void onPromoted(String queue, int count) {
	}

	/**
	 * Called after a claim or a promote tick moved jobs of a queue that were not claimed
	 * by their deadline ({@link io.echomq.core.EnqueueOptions#withExpiry}) to dead.
	 * @param queue the queue (or partition)
	 * @param count how many expired
	 * @since 0.5.0
	 */
	default void onExpired(String queue, int count) {
	}

}
