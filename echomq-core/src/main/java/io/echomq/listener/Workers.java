package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.crypto.QueueEncryption;
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

	private final QueueEncryption encryption;

	/** Workers started and not ended, at most the concurrency. */
	private final AtomicInteger started = new AtomicInteger();

	Workers(ContainerSettings settings, JobHandler handler, List<JobInvocationInterceptor> interceptors, Runs runs,
			ContainerClaims claims, LeaseKeeper leaseKeeper, JobEvents events, TaskExecutor executor,
			@Nullable CompletionBatcher completions, QueueEncryption encryption) {
		this.settings = settings;
		this.handler = handler;
		this.interceptors = interceptors;
		this.runs = runs;
		this.claims = claims;
		this.leaseKeeper = leaseKeeper;
		this.events = events;
		this.executor = executor;
		this.completions = completions;
		this.encryption = encryption;
	}

	/**
	 * Run a leased job, in the slot taken for it: at once when fewer handlers than the
	 * concurrency run, else as soon as one returns (the job was claimed ahead; its lease
	 * is renewed while it waits). A job that cannot run (the container stopped, the
	 * executor refused it) is handed back to pending and its slot freed.
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
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot run " + job + "; releasing it");
			job.release();
			this.runs.finished(job);
			return;
		}
		this.runs.await(job);
		startWorker();
	}

	/**
	 * Start a worker while a job waits and fewer workers than the concurrency run.
	 */
	private void startWorker() {
		while (this.runs.hasWaiting()) {
			int started = this.started.get();
			if (started >= this.runs.concurrency()) {
				return;
			}
			if (this.started.compareAndSet(started, started + 1)) {
				try {
					this.executor.execute(new Execution());
				}
				catch (RuntimeException ex) {
					this.started.decrementAndGet();
					logger.warn(ex, "Cannot start a worker; releasing the jobs that wait for one");
					releaseWaiting(this.runs);
				}
				return;
			}
		}
	}

	/**
	 * Hand back to pending every job that waits for a worker, and free its slot.
	 * @param runs the ledger
	 */
	static void releaseWaiting(Runs runs) {
		LeasedJob job;
		while ((job = runs.nextWaiting()) != null) {
			job.release();
			runs.unrun(job);
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
		if (!job.settle()) {
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
	 * A worker: runs the handlers of waiting jobs on its thread, one after the other,
	 * until none waits.
	 */
	final class Execution implements Runnable {

		@Override
		public void run() {
			Runs runs = Workers.this.runs;
			while (true) {
				LeasedJob job = runs.nextWaiting();
				if (job == null) {
					Workers.this.started.decrementAndGet();
					// a job that came while this worker was ending found every worker
					// busy
					if (!runs.hasWaiting() || !rejoin()) {
						return;
					}
					continue;
				}
				run(job);
			}
		}

		private boolean rejoin() {
			AtomicInteger started = Workers.this.started;
			int current;
			do {
				current = started.get();
				if (current >= Workers.this.runs.concurrency()) {
					return false;
				}
			}
			while (!started.compareAndSet(current, current + 1));
			return true;
		}

		private void run(LeasedJob job) {
			Runs runs = Workers.this.runs;
			if (!runs.isRunning() || runs.isPaused()) {
				// claimed ahead, not started: a stop or a pause hands it back at once
				job.release();
				runs.unrun(job);
				return;
			}
			boolean handedOver = false;
			try {
				handedOver = execute(job);
			}
			catch (Throwable ex) {
				logger.error(ex, () -> "Unexpected failure while running " + job);
			}
			finally {
				if (!handedOver) {
					runs.finished(job);
				}
			}
		}

		/**
		 * Give the worker up without running it (the executor shut down before it
		 * started): the jobs that wait go back to pending.
		 */
		void abandon() {
			Workers.this.started.decrementAndGet();
			releaseWaiting(Workers.this.runs);
		}

		/**
		 * Run the handler and record its outcome.
		 * @return whether the completion was handed to the batcher, which then finishes
		 * the job
		 */
		private boolean execute(LeasedJob job) {
			ClaimedJob claimed = job.claimed();
			Workers.this.events.claimed(job.job(), waited(claimed));
			Throwable failure = null;
			job.started();
			if (!job.isCancelled()) {
				Workers.this.leaseKeeper.time(job);
			}
			job.worker(Thread.currentThread());
			try {
				if (!job.isCancelled()) {
					job.open(Workers.this.encryption);
					invoke(0, job);
				}
			}
			catch (Throwable ex) {
				failure = ex;
			}
			finally {
				job.worker(null);
			}
			Duration took = job.elapsed();
			// a handler may leave the thread interrupted; the outcome must still be
			// written
			Thread.interrupted();
			if (job.isTimedOut()) {
				Duration timeout = job.timeout();
				failure = (failure != null) ? new JobTimeoutException(timeout, failure)
						: new JobTimeoutException(timeout);
			}
			if (failure == null) {
				return complete(job, took);
			}
			job.fail(failure);
			return false;
		}

	}

}
