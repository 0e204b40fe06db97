package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Outcomes;
import io.echomq.core.internal.QueueAdmin;
import io.echomq.core.internal.Results;
import io.echomq.crypto.QueueEncryption;
import io.echomq.listener.OutcomeSender.Sent;
import io.echomq.support.internal.ErrorText;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.util.Assert;

/**
 * A claimed job from its claim until its outcome is recorded, and the {@link JobContext}
 * its handler sees.
 * <p>
 * This is the only place a listener uses the job's fencing token: renewing the lease,
 * completing, retrying, dead-lettering and releasing all go through here, and each
 * outcome is counted and told to the {@link JobEventListener JobEventListeners} here.
 * Exactly one of the worker (settle), a stop or pause (release) and a lost lease (stale)
 * wins the job; the others then leave it alone.
 *
 * @author EchoMQ
 */
final class LeasedJob implements JobContext {

	private static final LogAccessor logger = new LogAccessor(LeasedJob.class);

	private static final long MIN_RENEWAL_INTERVAL_NANOS = Duration.ofMillis(10).toNanos();

	enum State {

		RUNNING, SETTLED, RELEASED, STALE

	}

	private final ClaimedJob job;

	/** The job as its handler sees it, its payload opened before the handler runs. */
	private volatile ReceivedJob received;

	private volatile boolean opened;

	private final Outcomes outcomes;

	private final QueueAdmin admin;

	private final ContainerSettings settings;

	private final ListenerCounters counters;

	private final JobEvents events;

	private final long maxAttempts;

	private volatile long startNanos = System.nanoTime();

	private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);

	private volatile Duration lease;

	/** The keeper's handle on the renewals and the timeout, once it watches the job. */
	private volatile @Nullable Renewal renewal;

	private final Object workerLock = new Object();

	private volatile @Nullable Thread worker;

	private volatile boolean timedOut;

	private volatile boolean cancelled;

	private volatile boolean claimedAgain;

	private final JobOutput output;

	private final OutcomeSender sender;

	/** When the lease runs out as far as this node knows ({@link System#nanoTime()}). */
	private volatile long leaseDeadlineNanos;

	LeasedJob(ClaimedJob job, Outcomes outcomes, QueueAdmin admin, Results results, ContainerSettings settings,
			ListenerCounters counters, JobEvents events) {
		this.job = job;
		this.received = ReceivedJob.of(job);
		this.output = new JobOutput(results, job.queue(), job.id());
		this.outcomes = outcomes;
		this.admin = admin;
		this.settings = settings;
		this.counters = counters;
		this.events = events;
		this.lease = settings.lease();
		this.sender = new OutcomeSender(counters);
		this.leaseDeadlineNanos = System.nanoTime() + settings.lease().toNanos();
		Integer cap = settings.maxAttempts();
		this.maxAttempts = (cap != null) ? Math.min(job.maxAttempts(), cap) : job.maxAttempts();
	}

	@Override
	public JobId id() {
		return this.job.id();
	}

	@Override
	public String queue() {
		return this.job.queue();
	}

	@Override
	public long attempt() {
		return this.job.attempt();
	}

	@Override
	public long maxAttempts() {
		return this.maxAttempts;
	}

	@Override
	public Instant enqueuedAt() {
		return this.job.enqueuedAt();
	}

	@Override
	public Map<String, String> fields() {
		return this.job.fields();
	}

	@Override
	public ReceivedJob job() {
		return this.received;
	}

	/**
	 * Decrypt the payload the handler (and its interceptors) will see, if the queue is
	 * encrypted. Done once per job: a payload is never decrypted twice, even when its
	 * plaintext looks encrypted.
	 * @param encryption the queue encryption
	 * @throws UnreadablePayloadException if the payload cannot be decrypted (the job is
	 * then dead-lettered at once)
	 */
	void open(QueueEncryption encryption) {
		String queue = this.settings.queue();
		if (!this.opened && encryption.isEncrypted(queue)) {
			this.opened = true;
			this.received = this.received.opened(encryption, queue);
		}
	}

	/**
	 * Return the claimed job, with its fencing token (the container's alone).
	 * @return the claimed job
	 */
	ClaimedJob claimed() {
		return this.job;
	}

	@Override
	public boolean extendLease(Duration lease) {
		Assert.isTrue(lease != null && lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		if (!isRunning()) {
			return false;
		}
		if (!extend(lease)) {
			return false;
		}
		this.lease = (lease.compareTo(this.settings.lease()) > 0) ? lease : this.settings.lease();
		return true;
	}

	@Override
	public boolean isLeaseLost() {
		return this.state.get() == State.STALE;
	}

	@Override
	public boolean isCancelled() {
		return this.cancelled;
	}

	/**
	 * Renew the lease to its current length, unless the job is no longer running here.
	 * @throws RuntimeException if Redis cannot be reached (the next tick tries again)
	 */
	void renew() {
		if (isRunning()) {
			extend(this.lease);
		}
		else {
			stopRenewing();
		}
	}

	private boolean extend(Duration lease) {
		TransitionResult result = prolong(lease);
		if (result.reason() == StaleReason.CANCEL_REQUESTED) {
			cancelRequested();
			return false;
		}
		if (result.isStale()) {
			if (this.state.compareAndSet(State.RUNNING, State.STALE)) {
				stopRenewing();
				stopTimer();
				logger.warn(() -> "Lost the lease of " + this + " (" + result.describe()
						+ "); its outcome will not be recorded");
				stale(result);
			}
			return false;
		}
		return true;
	}

	private TransitionResult prolong(Duration lease) {
		long sent = System.nanoTime();
		TransitionResult result = this.outcomes.extend(queue(), id(), this.job.token(), lease);
		if (result.isApplied()) {
			this.leaseDeadlineNanos = sent + lease.toNanos();
		}
		return result;
	}

	/** What this run reports besides its outcome: its result and progress. */
	JobOutput output() {
		return this.output;
	}

	@Override
	public boolean progress(int percent) {
		return this.outcomes.progress(queue(), id(), this.job.token(), percent).isApplied();
	}

	@Override
	public boolean progress(Object progress) {
		String text = this.output.progressText(progress);
		return this.outcomes.progress(queue(), id(), this.job.token(), text).isApplied();
	}

	/**
	 * Record that the handler returned: the job completes, unless it was released or its
	 * lease lost meanwhile.
	 * @param took how long the handler ran
	 */
	void complete(Duration took) {
		if (settle()) {
			sendCompletion(took);
		}
	}

	/**
	 * Send the completion of a job settled by {@link #settle()} alone, and record it.
	 * @param took how long the handler ran
	 */
	void sendCompletion(Duration took) {
		recordCompletion(send("completion", this::sendComplete, false), took);
	}

	/**
	 * Record the reply to a completion sent in a batch; {@code null} when the batch could
	 * not tell whether it applied, in which case it is sent again from here.
	 * @param result what the batched call returned, or {@code null}
	 * @param took how long the handler ran
	 */
	void completed(@Nullable TransitionResult result, Duration took) {
		recordCompletion((result != null) ? new Sent(result, false) : send("completion", this::sendComplete, true),
				took);
	}

	private TransitionResult sendComplete() {
		return this.outcomes.complete(queue(), id(), this.job.token(), this.job.uniqueKey(), this.job.flowParent(),
				this.output.result());
	}

	private void recordCompletion(@Nullable Sent sent, Duration took) {
		if (sent == null) {
			return;
		}
		// a completion sent again after a lost reply finds the row already retired: it
		// did apply,
		// unless the job was claimed again meanwhile, and the later run retired it
		boolean appliedBefore = sent.resent() && sent.result().reason() == StaleReason.DONE && !this.claimedAgain;
		if (sent.result().isStale() && !appliedBefore) {
			staleOutcome(sent.result());
			return;
		}
		this.counters.completed.increment();
		this.events.completed(this.received, took);
	}

	/**
	 * Record that the handler failed: the job is retried after the backoff, or
	 * dead-lettered when this was its last attempt or its payload cannot be read, unless
	 * it was released or its lease lost meanwhile.
	 * @param failure what the handler threw
	 */
	void fail(Throwable failure) {
		if (!settle()) {
			return;
		}
		SnoozeJobException snooze = Failures.find(failure, SnoozeJobException.class);
		if (snooze != null) {
			snooze(snooze);
			return;
		}
		String error = ErrorText.of(failure);
		String fatal = Failures.fatal(failure, this.settings.retryPolicy());
		Integer cap = this.settings.maxAttempts();
		boolean capped = cap != null && attempt() >= cap;
		Duration backoff = this.settings.backoff().delayFor(attempt());
		Sent sent = (fatal != null || capped) ? send("dead-letter",
				() -> this.outcomes.deadLetter(queue(), id(), this.job.token(), error, this.job.keys(true)), false)
				: send("failure", () -> this.outcomes.retry(queue(), id(), this.job.token(), error, backoff,
						this.job.keys(this.job.isLastAttempt())), false);
		if (sent == null) {
			return;
		}
		TransitionResult result = sent.result();
		if (result.isStale()) {
			staleOutcome(result);
			return;
		}
		if (result.state() == JobState.DEAD) {
			this.counters.dead.increment();
			logger.error(failure, () -> "Dead-lettered " + this + " after attempt " + attempt() + " of "
					+ this.maxAttempts + ((fatal != null) ? " (" + fatal + ")" : "") + ": " + error);
		}
		else {
			this.counters.retried.increment();
			logger.warn(() -> "Attempt " + attempt() + " of " + this.maxAttempts + " of " + this + " failed, retrying "
					+ ((result.state() == JobState.SCHEDULE) ? "in " + backoff : "now") + ": " + error);
		}
		this.events.failed(this.received, failure, result);
	}

	private void snooze(SnoozeJobException snooze) {
		Duration delay = snooze.getDelay();
		if (snooze instanceof RateLimitedJobException limited && limited.isPauseQueue()) {
			pauseQueue(delay);
		}
		Sent sent = send("snooze", () -> this.outcomes.snooze(queue(), id(), this.job.token(), ErrorText.of(snooze),
				delay, this.job.keys(false)), false);
		if (sent == null) {
			return;
		}
		if (sent.result().isStale()) {
			staleOutcome(sent.result());
			return;
		}
		this.counters.snoozed.increment();
		logger.debug(() -> "Snoozed " + this + " for " + delay + ": " + snooze.getMessage());
		this.events.snoozed(this.received, delay);
	}

	/**
	 * Pause the queue cluster-wide before the job is put off, so that no node claims
	 * another job for the limited remote side meanwhile. A pause that cannot be written
	 * is logged; the job is put off all the same.
	 */
	private void pauseQueue(Duration duration) {
		try {
			if (this.admin.pause(queue(), duration, "rate limited by the handler of " + id())) {
				logger.info(() -> "Paused queue '" + queue() + "' cluster-wide for " + duration + ": the handler of "
						+ this + " was rate-limited");
			}
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot pause queue '" + queue() + "' for " + duration + " after a rate limit");
		}
	}

	/**
	 * Hand the job back to pending without spending an attempt (a stop, a pause, or an
	 * executor that would not take it), unless its handler already settled it or its
	 * lease was lost. A release that cannot be written leaves the job to lease expiry.
	 */
	void release() {
		if (!this.state.compareAndSet(State.RUNNING, State.RELEASED)) {
			return;
		}
		stopRenewing();
		stopTimer();
		try {
			TransitionResult result = this.outcomes.release(queue(), id(), this.job.token(), this.job.keys(false));
			if (result.isApplied()) {
				this.counters.released.increment();
				logger.info(() -> "Released unfinished " + this + " to pending");
				this.events.released(this.received);
			}
			else {
				staleOutcome(result);
			}
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot release " + this + "; it runs again once its lease expires");
		}
	}

	/**
	 * Return how long the handler may run: the job's own timeout, else the listener's.
	 * @return the timeout, or {@code null} for none
	 */
	@Nullable Duration timeout() {
		Duration own = this.job.timeout();
		return (own != null) ? own : this.settings.timeout();
	}

	/**
	 * The handler ran past its timeout: stop renewing the lease (a handler that ignores
	 * the interrupt loses it and the job is reaped) and interrupt the handler thread. The
	 * attempt is recorded as failed when the handler gives its thread back.
	 */
	void timeOut() {
		if (!isRunning()) {
			return;
		}
		stopRenewing();
		logger.warn(() -> "Handler of " + this + " ran past its timeout of " + timeout() + "; interrupting it");
		synchronized (this.workerLock) {
			this.timedOut = true;
			Thread current = this.worker;
			if (current != null) {
				current.interrupt();
			}
		}
	}

	/**
	 * A cancel was asked for the job while it runs here: stop renewing the lease and
	 * interrupt the handler thread. The job stays leased to this worker; whatever the
	 * handler comes to is sent as usual and the script retires the job as cancelled
	 * instead (a handler that ignores the interrupt past its lease is retired by the
	 * reaper).
	 */
	private void cancelRequested() {
		if (this.cancelled || !isRunning()) {
			return;
		}
		stopRenewing();
		stopTimer();
		logger.info(() -> "Cancel requested for " + this + "; interrupting its handler");
		synchronized (this.workerLock) {
			this.cancelled = true;
			Thread current = this.worker;
			if (current != null) {
				current.interrupt();
			}
		}
	}

	/**
	 * Run on the worker thread while the handler runs, so that a timeout can interrupt
	 * it.
	 * @param worker the worker thread, or {@code null} once the handler returned
	 */
	void worker(@Nullable Thread worker) {
		// the deadline can pass before the worker thread gets here (a busy machine): the
		// handler must then start interrupted rather than run unbounded
		synchronized (this.workerLock) {
			this.worker = worker;
			if (worker != null && this.timedOut) {
				worker.interrupt();
			}
		}
	}

	boolean isTimedOut() {
		return this.timedOut;
	}

	/**
	 * Note that the container claimed this job again (its lease had lapsed) before this
	 * run's outcome was recorded: a completion of this run sent again that finds the row
	 * retired then knows the later run retired it, not this one.
	 */
	void claimedAgain() {
		this.claimedAgain = true;
	}

	long renewalIntervalNanos() {
		// not Duration.dividedBy: it divides through BigDecimal, once per claimed job
		return Math.max(MIN_RENEWAL_INTERVAL_NANOS, this.settings.lease().toNanos() / 3);
	}

	/**
	 * Hold the handle of the keeper that renews the lease (before it first renews it).
	 * @param renewal the handle
	 */
	void renewal(Renewal renewal) {
		this.renewal = renewal;
	}

	private void stopRenewing() {
		Renewal current = this.renewal;
		if (current != null) {
			current.stop();
		}
	}

	private void stopTimer() {
		Renewal current = this.renewal;
		if (current != null) {
			current.stopTimer();
		}
	}

	/**
	 * Note that the handler starts now: a job claimed ahead waited for a worker, and its
	 * run time counts from here.
	 */
	void started() {
		this.startNanos = System.nanoTime();
	}

	/**
	 * Return the handle of the keeper that renews the lease, once it watches the job.
	 * @return the handle, or {@code null}
	 */
	@Nullable Renewal renewal() {
		return this.renewal;
	}

	Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.startNanos);
	}

	boolean isRunning() {
		return this.state.get() == State.RUNNING;
	}

	State state() {
		return this.state.get();
	}

	/**
	 * Settle the job: its outcome is sent next (a completion perhaps later, in a batch,
	 * then {@link #completed}, or alone, {@link #sendCompletion}).
	 * @return {@code false} when the job was released or its lease lost meanwhile
	 * (nothing to record)
	 */
	boolean settle() {
		stopRenewing();
		stopTimer();
		if (this.state.compareAndSet(State.RUNNING, State.SETTLED)) {
			return true;
		}
		logger.debug(() -> "Not recording the outcome of " + this + ": " + this.state.get());
		return false;
	}

	private void staleOutcome(TransitionResult result) {
		if (result.reason() == StaleReason.CANCELLED) {
			this.cancelled = true;
			this.counters.cancelled.increment();
			logger.info(() -> "Discarded the outcome of " + this + ": it was cancelled while it ran");
			this.events.cancelled(this.received);
			return;
		}
		logger.warn(() -> "Outcome of " + this + " not recorded, the lease was lost: " + result.describe());
		stale(result);
	}

	private void stale(TransitionResult result) {
		this.counters.stale.increment();
		this.events.stale(this.received, result);
	}

	private @Nullable Sent send(String what, Supplier<TransitionResult> transition, boolean tried) {
		return this.sender.send(this, what, transition, tried, () -> this.leaseDeadlineNanos, renewalIntervalNanos(),
				() -> prolong(this.lease).isApplied());
	}

	@Override
	public String toString() {
		return "job " + this.job.id() + " on queue '" + this.job.queue() + "'";
	}

}
