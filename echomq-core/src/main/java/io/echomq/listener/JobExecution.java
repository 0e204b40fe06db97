package io.echomq.listener;

import java.time.Duration;
import java.util.function.Supplier;

import io.echomq.core.ClaimedJob;
import io.echomq.core.JobState;
import io.echomq.core.Jobs;
import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import io.echomq.support.ErrorText;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Runs one job's handler on a worker thread and records the outcome: complete on return,
 * retry with backoff or dead-letter on a throw. Nothing a handler throws escapes: an
 * {@link Error} (a {@link StackOverflowError}, an {@link AssertionError}, even an
 * {@link OutOfMemoryError}) is recorded as a failed attempt like any exception, so the
 * worker thread survives.
 *
 * @author EchoMQ
 */
final class JobExecution implements Runnable {

	private static final LogAccessor logger = new LogAccessor(JobExecution.class);

	static final int REPORT_ATTEMPTS = 4;

	private static final Duration REPORT_BACKOFF = Duration.ofMillis(100);

	private final QueueListenerContainer container;

	private final InFlightJob job;

	private boolean rewritten;

	JobExecution(QueueListenerContainer container, InFlightJob job) {
		this.container = container;
		this.job = job;
	}

	@Override
	public void run() {
		try {
			execute();
		}
		catch (Throwable ex) {
			logger.error(ex, () -> "Unexpected failure while running " + this.job);
		}
		finally {
			this.container.finished(this.job);
		}
	}

	/**
	 * Give the job up without running it (the executor shut down before it started).
	 */
	void abandon() {
		this.container.finished(this.job);
	}

	private void execute() {
		ClaimedJob claimed = this.job.job();
		this.container.events().claimed(claimed, wait(claimed));
		Throwable failure = null;
		try {
			this.container.invokeHandler(claimed, this.job);
		}
		catch (Throwable ex) {
			failure = ex;
		}
		Duration took = this.job.elapsed();
		this.job.stopRenewing();
		// a handler may leave the thread interrupted; the outcome must still be written
		Thread.interrupted();
		if (!this.job.settle()) {
			logger.debug(() -> "Not recording the outcome of " + this.job + ": " + this.job.state());
			return;
		}
		if (failure == null) {
			complete(claimed, took);
		}
		else {
			fail(claimed, failure);
		}
	}

	private void complete(ClaimedJob claimed, Duration took) {
		Jobs jobs = this.container.jobs();
		TransitionResult result = record("completion",
				() -> jobs.complete(claimed.queue(), claimed.id(), claimed.token()));
		if (result == null) {
			return;
		}
		// a completion sent again after a lost reply finds the row already retired: it did apply
		boolean appliedBefore = this.rewritten && result.reason() == StaleReason.DONE;
		if (result.isStale() && !appliedBefore) {
			this.container.staleOutcome(this.job, result.describe());
			return;
		}
		this.container.counters().completed.increment();
		this.container.events().completed(claimed, took);
	}

	private void fail(ClaimedJob claimed, Throwable failure) {
		Jobs jobs = this.container.jobs();
		ContainerSettings settings = this.container.getSettings();
		String error = ErrorText.of(failure);
		boolean unreadable = failure instanceof UnreadablePayloadException;
		Integer cap = settings.maxAttempts();
		boolean capped = cap != null && claimed.attempt() >= cap;
		Duration backoff = settings.backoff().delayFor(claimed.attempt());
		TransitionResult result = (unreadable || capped)
				? record("dead-letter", () -> jobs.deadLetter(claimed.queue(), claimed.id(), claimed.token(), error))
				: record("failure", () -> jobs.retry(claimed.queue(), claimed.id(), claimed.token(), error, backoff));
		if (result == null) {
			return;
		}
		if (result.isStale()) {
			this.container.staleOutcome(this.job, result.describe());
			return;
		}
		if (result.state() == JobState.DEAD) {
			this.container.counters().dead.increment();
			logger.error(failure, () -> "Dead-lettered " + this.job + " after attempt " + claimed.attempt() + " of "
					+ this.job.maxAttempts() + (unreadable ? " (unreadable payload)" : "") + ": " + error);
		}
		else {
			this.container.counters().retried.increment();
			logger.warn(() -> "Attempt " + claimed.attempt() + " of " + this.job.maxAttempts() + " of " + this.job
					+ " failed, retrying " + ((result.state() == JobState.SCHEDULE) ? "in " + backoff : "now") + ": "
					+ error);
		}
		this.container.events().failed(claimed, failure, result);
	}

	/**
	 * Run a transition, trying again a few times with backoff when Redis cannot be
	 * reached. If it still fails the job is left active: its lease expires and the
	 * reaper runs it again (at-least-once).
	 */
	private @Nullable TransitionResult record(String what, Supplier<TransitionResult> transition) {
		Duration delay = REPORT_BACKOFF;
		for (int attempt = 1;; attempt++) {
			this.rewritten = attempt > 1;
			try {
				return transition.get();
			}
			catch (RuntimeException ex) {
				if (attempt >= REPORT_ATTEMPTS) {
					this.container.counters().unrecorded.increment();
					logger.warn(ex, () -> "Cannot record the " + what + " of " + this.job + " after " + REPORT_ATTEMPTS
							+ " attempts; it runs again once its lease expires");
					return null;
				}
				Signal.pause(delay);
				delay = delay.multipliedBy(2);
			}
		}
	}

	private static Duration wait(ClaimedJob job) {
		Duration wait = Duration.between(job.readyAt(), job.claimedAt());
		return wait.isNegative() ? Duration.ZERO : wait;
	}

}
