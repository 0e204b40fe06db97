package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.echomq.core.ClaimedJob;
import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A claimed job between dispatch and its recorded outcome, and the {@link JobContext} its
 * handler sees. Exactly one of the worker (settle), the shutdown (release) and the lease
 * keeper (stale) wins the job; the others then leave it alone.
 *
 * @author EchoMQ
 */
final class InFlightJob implements JobContext {

	enum State {

		RUNNING, SETTLED, RELEASED, STALE

	}

	private final ClaimedJob job;

	private final QueueListenerContainer container;

	private final Duration configuredLease;

	private final long maxAttempts;

	private final long startNanos = System.nanoTime();

	private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);

	private volatile Duration lease;

	private volatile @Nullable ScheduledFuture<?> renewal;

	InFlightJob(ClaimedJob job, QueueListenerContainer container) {
		this.job = job;
		this.container = container;
		this.configuredLease = container.getSettings().lease();
		this.lease = this.configuredLease;
		Integer cap = container.getSettings().maxAttempts();
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
	public ClaimedJob job() {
		return this.job;
	}

	@Override
	public boolean extendLease(Duration lease) {
		Assert.isTrue(lease != null && lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		if (this.state.get() != State.RUNNING) {
			return false;
		}
		TransitionResult result = this.container.jobs().extend(queue(), id(), attempt(), lease);
		if (result.isStale()) {
			this.container.leaseLost(this, result.describe());
			return false;
		}
		this.lease = (lease.compareTo(this.configuredLease) > 0) ? lease : this.configuredLease;
		return true;
	}

	@Override
	public boolean isLeaseLost() {
		return this.state.get() == State.STALE;
	}

	QueueListenerContainer container() {
		return this.container;
	}

	Duration lease() {
		return this.lease;
	}

	Duration configuredLease() {
		return this.configuredLease;
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

	boolean settle() {
		return this.state.compareAndSet(State.RUNNING, State.SETTLED);
	}

	boolean release() {
		return this.state.compareAndSet(State.RUNNING, State.RELEASED);
	}

	boolean markStale() {
		return this.state.compareAndSet(State.RUNNING, State.STALE);
	}

	void renewal(@Nullable ScheduledFuture<?> renewal) {
		this.renewal = renewal;
	}

	void stopRenewing() {
		ScheduledFuture<?> current = this.renewal;
		if (current != null) {
			current.cancel(false);
		}
	}

	@Override
	public String toString() {
		return "job " + this.job.id() + " on queue '" + this.job.queue() + "'";
	}

}
