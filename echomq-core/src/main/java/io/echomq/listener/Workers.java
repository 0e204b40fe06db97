package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.listener.internal.ContainerSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.core.task.TaskExecutor;

/**
 * The workers of one started container: each leased job is dispatched to the executor,
 * where its handler runs (through the interceptors) and what came of it goes to its
 * {@link LeasedJob}, which records it: complete on return, retry with backoff or
 * dead-letter on a throw. A completion goes to the {@link CompletionBatcher}, and its
 * {@link CompletionBatcher.Reply reply} is recorded on the sending thread, which then
 * passes the slot on to the job claimed with it, or frees it ({@link Runs}).
 * <p>
 * Nothing a handler throws escapes: an {@link Error} (a {@link StackOverflowError}, an
 * {@link AssertionError}, even an {@link OutOfMemoryError}) is recorded as a failed
 * attempt like any exception, so the worker thread survives.
 *
 * @author EchoMQ
 */
final class Workers {

	private static final LogAccessor logger = new LogAccessor(Workers.class);

	private final ContainerSettings settings;

	private final JobHandler handler;

	private final List<JobInvocationInterceptor> interceptors;

	private final Runs runs;

	private final ContainerClaims claims;

	private final LeaseKeeper leaseKeeper;

	private final JobEvents events;

	private final TaskExecutor executor;

	private final @Nullable CompletionBatcher completions;

	Workers(ContainerSettings settings, JobHandler handler, List<JobInvocationInterceptor> interceptors, Runs runs,
			ContainerClaims claims, LeaseKeeper leaseKeeper, JobEvents events, TaskExecutor executor,
			@Nullable CompletionBatcher completions) {
		this.settings = settings;
		this.handler = handler;
		this.interceptors = interceptors;
		this.runs = runs;
		this.claims = claims;
		this.leaseKeeper = leaseKeeper;
		this.events = events;
		this.executor = executor;
		this.completions = completions;
	}

	/**
	 * Run a leased job, in the slot taken for it. A job that cannot run (the container
	 * stopped, the executor refused it) is handed back to pending and its slot freed.
	 * @param job the job
	 */
	void dispatch(LeasedJob job) {
		if (!this.runs.isRunning()) {
			job.release();
			this.runs.unrun(job);
			return;
		}
		this.runs.hold(job);
		try {
			this.leaseKeeper.watch(job);
			this.executor.execute(new Execution(job));
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot run " + job + "; releasing it");
			job.release();
			this.runs.finished(job);
		}
	}

	private void invoke(int index, LeasedJob job) throws Exception {
		if (index == this.interceptors.size()) {
			this.handler.handle(job.job(), job);
			return;
		}
		this.interceptors.get(index).intercept(job.job(), this.settings, () -> invoke(index + 1, job));
	}

	/**
	 * Settle a job whose handler returned as completed and hand its completion to the
	 * batcher; without one (or once it ended) send it from here.
	 * @return whether the batcher took it, and finishes the job once it is sent
	 */
	private boolean complete(LeasedJob job, Duration took) {
		CompletionBatcher batcher = this.completions;
		if (batcher == null) {
			job.complete(took);
			return false;
		}
		if (!job.settleCompleted()) {
			return false;
		}
		CompletableFuture<CompletionBatcher.Reply> reply = new CompletableFuture<>();
		// registered before the batcher has it: it runs on the sending thread
		reply.thenAccept((sent) -> completed(job, took, sent));
		if (batcher.add(job, reply)) {
			return true;
		}
		job.sendCompletion(took);
		return false;
	}

	/**
	 * Record a batched completion's reply (sending thread), then pass the job's slot on
	 * to the job claimed with it, or free it.
	 */
	private void completed(LeasedJob job, Duration took, CompletionBatcher.Reply sent) {
		LeasedJob next = sent.next();
		try {
			job.completed(sent.result(), took);
		}
		catch (Throwable ex) {
			logger.error(ex, () -> "Unexpected failure while recording the completion of " + job);
		}
		finally {
			// a slot given back before (a partitioned queue) is no longer the job's to
			// hand over
			if (next != null && this.runs.handOver(job, next)) {
				dispatch(next);
			}
			else {
				this.runs.finished(job);
				if (next != null) {
					this.claims.handBack(next);
				}
			}
		}
	}

	private static Duration waited(ClaimedJob job) {
		Duration wait = Duration.between(job.readyAt(), job.claimedAt());
		return wait.isNegative() ? Duration.ZERO : wait;
	}

	/**
	 * Runs one job's handler on a worker thread.
	 */
	final class Execution implements Runnable {

		private final LeasedJob job;

		Execution(LeasedJob job) {
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
					Workers.this.runs.finished(this.job);
				}
			}
		}

		/**
		 * Give the job up without running it (the executor shut down before it started).
		 */
		void abandon() {
			Workers.this.runs.finished(this.job);
		}

		/**
		 * Run the handler and record its outcome.
		 * @return whether the completion was handed to the batcher, which then finishes
		 * the job
		 */
		private boolean execute() {
			ClaimedJob claimed = this.job.claimed();
			Workers.this.events.claimed(claimed, waited(claimed));
			Throwable failure = null;
			this.job.worker(Thread.currentThread());
			try {
				if (!this.job.isCancelled()) {
					invoke(0, this.job);
				}
			}
			catch (Throwable ex) {
				failure = ex;
			}
			finally {
				this.job.worker(null);
			}
			Duration took = this.job.elapsed();
			// a handler may leave the thread interrupted; the outcome must still be
			// written
			Thread.interrupted();
			if (this.job.isTimedOut()) {
				Duration timeout = this.job.timeout();
				failure = (failure != null) ? new JobTimeoutException(timeout, failure)
						: new JobTimeoutException(timeout);
			}
			if (failure == null) {
				return complete(this.job, took);
			}
			this.job.fail(failure);
			return false;
		}

	}

}
