package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.echomq.core.ReapResult;
import io.echomq.core.TransitionResult;
import io.echomq.support.internal.RateLimitedLog;

import org.springframework.core.log.LogAccessor;

/**
 * Calls every {@link JobEventListener}, swallowing and logging what they throw.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class JobEvents {

	/** Tells nobody. */
	public static final JobEvents NONE = new JobEvents(List.of());

	private static final LogAccessor logger = new LogAccessor(JobEvents.class);

	private final List<JobEventListener> listeners;

	private final RateLimitedLog failures = new RateLimitedLog(logger, Duration.ofSeconds(30));

	/**
	 * Create a fan-out to the given listeners.
	 * @param listeners the listeners, called in order
	 */
	public JobEvents(List<JobEventListener> listeners) {
		this.listeners = List.copyOf(listeners);
	}

	void claimed(ReceivedJob job, Duration wait) {
		each((listener) -> listener.onClaimed(job, wait));
	}

	void completed(ReceivedJob job, Duration duration) {
		each((listener) -> listener.onCompleted(job, duration));
	}

	void failed(ReceivedJob job, Throwable error, TransitionResult result) {
		each((listener) -> listener.onFailed(job, error, result));
	}

	void stale(ReceivedJob job, TransitionResult result) {
		each((listener) -> listener.onStale(job, result));
	}

	void snoozed(ReceivedJob job, Duration delay) {
		each((listener) -> listener.onSnoozed(job, delay));
	}

	void cancelled(ReceivedJob job) {
		each((listener) -> listener.onCancelled(job));
	}

	void released(ReceivedJob job) {
		each((listener) -> listener.onReleased(job));
	}

	/**
	 * Tell every listener that a reap tick moved jobs.
	 * @param queue the queue
	 * @param result what moved
	 */
	public void reaped(String queue, ReapResult result) {
		each((listener) -> listener.onReaped(queue, result));
	}

	/**
	 * Tell every listener that a promote tick moved jobs.
	 * @param queue the queue
	 * @param count how many moved
	 */
	public void promoted(String queue, int count) {
		each((listener) -> listener.onPromoted(queue, count));
	}

	/**
	 * Tell every listener that a claim or a promote tick moved jobs past their deadline
	 * to dead.
	 * @param queue the queue
	 * @param count how many expired
	 */
	public void expired(String queue, int count) {
		each((listener) -> listener.onExpired(queue, count));
	}

	private void each(Consumer<JobEventListener> call) {
		for (JobEventListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (Throwable ex) {
				this.failures.warn(ex, () -> "JobEventListener " + listener + " failed");
			}
		}
	}

}
