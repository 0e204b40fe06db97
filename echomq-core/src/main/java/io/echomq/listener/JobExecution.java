package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.ClaimedJob;

import org.springframework.core.log.LogAccessor;

/**
 * Runs one job's handler on a worker thread and hands what came of it to the
 * {@link LeasedJob}, which records it: complete on return, retry with backoff or
 * dead-letter on a throw. Nothing a handler throws escapes: an {@link Error} (a
 * {@link StackOverflowError}, an {@link AssertionError}, even an
 * {@link OutOfMemoryError}) is recorded as a failed attempt like any exception, so the
 * worker thread survives.
 *
 * @author EchoMQ
 */
final class JobExecution implements Runnable {

	private static final LogAccessor logger = new LogAccessor(JobExecution.class);

	private final QueueListenerContainer container;

	private final LeasedJob job;

	JobExecution(QueueListenerContainer container, LeasedJob job) {
		this.container = container;
		this.job = job;
	}

	@Override
	public void run() {
		boolean handedOver = false;
		try {
			handedOver = execute();
		}
		catch (Throwable ex) {
			logger.error(ex, () -> "Unexpected failure while running " + this.job);
		}
		finally {
			if (!handedOver) {
				this.container.finished(this.job);
			}
		}
	}

	/**
	 * Give the job up without running it (the executor shut down before it started).
	 */
	void abandon() {
		this.container.finished(this.job);
	}

	/**
	 * Run the handler and record its outcome.
	 * @return whether the completion was handed to the container's batcher, which then
	 * finishes the job
	 */
	private boolean execute() {
		ClaimedJob claimed = this.job.job();
		this.container.events().claimed(claimed, wait(claimed));
		Throwable failure = null;
		this.job.worker(Thread.currentThread());
		try {
			if (!this.job.isCancelled()) {
				this.container.invokeHandler(claimed, this.job);
			}
		}
		catch (Throwable ex) {
			failure = ex;
		}
		finally {
			this.job.worker(null);
		}
		Duration took = this.job.elapsed();
		// a handler may leave the thread interrupted; the outcome must still be written
		Thread.interrupted();
		if (this.job.isTimedOut()) {
			Duration timeout = this.job.timeout();
			failure = (failure != null) ? new JobTimeoutException(timeout, failure) : new JobTimeoutException(timeout);
		}
		if (failure == null) {
			CompletionBatcher batcher = this.container.completions();
			if (batcher != null) {
				return this.job.completeLater(took, batcher);
			}
			this.job.complete(took);
		}
		else {
			this.job.fail(failure);
		}
		return false;
	}

	private static Duration wait(ClaimedJob job) {
		Duration wait = Duration.between(job.readyAt(), job.claimedAt());
		return wait.isNegative() ? Duration.ZERO : wait;
	}

}
