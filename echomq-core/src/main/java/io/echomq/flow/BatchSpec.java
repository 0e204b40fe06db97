package io.echomq.flow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.echomq.EchoMqOperations;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A batch to enqueue with {@link EchoMqOperations#batch(BatchSpec)}: jobs, in any queues,
 * and callbacks that run once they have finished: on success (every job completed), on
 * complete (every job finished, some dead) and on death (the first dead job). The batch
 * lives in its home queue, which a node must maintain (it relays the callbacks). Sealed
 * when written unless {@link #open()}: an open batch takes more jobs
 * ({@link EchoMqOperations#addToBatch(String, io.echomq.core.JobId, List)}) and fires no
 * success or complete callback until it is sealed. Immutable.
 *
 * <pre class="code">
 * BatchJob batch = template.batch(BatchSpec.in("reports")
 *     .jobs(pages.stream().map((page) -&gt; FlowSpec.job("render", page)).toList())
 *     .onSuccess(FlowSpec.job("publish", report))
 *     .onDeath(FlowSpec.job("alert", report)));
 * </pre>
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class BatchSpec {

	private final String queue;

	private final List<FlowSpec> jobs;

	private final @Nullable FlowSpec onSuccess;

	private final @Nullable FlowSpec onComplete;

	private final @Nullable FlowSpec onDeath;

	private final boolean open;

	private BatchSpec(String queue, List<FlowSpec> jobs, @Nullable FlowSpec onSuccess, @Nullable FlowSpec onComplete,
			@Nullable FlowSpec onDeath, boolean open) {
		this.queue = queue;
		this.jobs = jobs;
		this.onSuccess = onSuccess;
		this.onComplete = onComplete;
		this.onDeath = onDeath;
		this.open = open;
	}

	/**
	 * Start a batch whose home is {@code queue}.
	 * @param queue the home queue, where the batch's row and status live
	 * @return the batch, without jobs or callbacks
	 */
	public static BatchSpec in(String queue) {
		Assert.notNull(queue, "'queue' must not be null");
		return new BatchSpec(queue, List.of(), null, null, null, false);
	}

	/**
	 * Return a copy with one more job.
	 * @param queue the job's queue
	 * @param payload its payload
	 * @return the new batch
	 */
	public BatchSpec job(String queue, Object payload) {
		return jobs(List.of(FlowSpec.job(queue, payload)));
	}

	/**
	 * Return a copy with more jobs, each a {@link FlowSpec} without children (with its
	 * options).
	 * @param jobs the jobs
	 * @return the new batch
	 */
	public BatchSpec jobs(Collection<FlowSpec> jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		Assert.noNullElements(jobs, "'jobs' must not hold null");
		List<FlowSpec> more = new ArrayList<>(this.jobs.size() + jobs.size());
		more.addAll(this.jobs);
		more.addAll(jobs);
		return new BatchSpec(this.queue, List.copyOf(more), this.onSuccess, this.onComplete, this.onDeath, this.open);
	}

	/**
	 * Return a copy with a callback enqueued once every job has completed; never when a
	 * job died.
	 * @param callback the callback job (without children, delay, run-at or lane)
	 * @return the new batch
	 */
	public BatchSpec onSuccess(FlowSpec callback) {
		Assert.notNull(callback, "'callback' must not be null");
		return new BatchSpec(this.queue, this.jobs, callback, this.onComplete, this.onDeath, this.open);
	}

	/**
	 * Return a copy with a callback enqueued once every job has finished, completed or
	 * dead.
	 * @param callback the callback job (without children, delay, run-at or lane)
	 * @return the new batch
	 */
	public BatchSpec onComplete(FlowSpec callback) {
		Assert.notNull(callback, "'callback' must not be null");
		return new BatchSpec(this.queue, this.jobs, this.onSuccess, callback, this.onDeath, this.open);
	}

	/**
	 * Return a copy with a callback enqueued when the first job dies; never when none
	 * does.
	 * @param callback the callback job (without children, delay, run-at or lane)
	 * @return the new batch
	 */
	public BatchSpec onDeath(FlowSpec callback) {
		Assert.notNull(callback, "'callback' must not be null");
		return new BatchSpec(this.queue, this.jobs, this.onSuccess, this.onComplete, callback, this.open);
	}

	/**
	 * Return a copy left open when written: it takes more jobs until it is sealed.
	 * @return the new batch
	 */
	public BatchSpec open() {
		return new BatchSpec(this.queue, this.jobs, this.onSuccess, this.onComplete, this.onDeath, true);
	}

	/**
	 * Return the home queue.
	 * @return the queue
	 */
	public String queue() {
		return this.queue;
	}

	/**
	 * Return the jobs.
	 * @return the jobs, in the order they were added
	 */
	public List<FlowSpec> jobs() {
		return this.jobs;
	}

	/**
	 * Return the success callback.
	 * @return the callback, or {@code null}
	 */
	public @Nullable FlowSpec onSuccess() {
		return this.onSuccess;
	}

	/**
	 * Return the complete callback.
	 * @return the callback, or {@code null}
	 */
	public @Nullable FlowSpec onComplete() {
		return this.onComplete;
	}

	/**
	 * Return the death callback.
	 * @return the callback, or {@code null}
	 */
	public @Nullable FlowSpec onDeath() {
		return this.onDeath;
	}

	/**
	 * Return whether the batch stays open when written.
	 * @return whether it is open
	 */
	public boolean isOpen() {
		return this.open;
	}

	@Override
	public String toString() {
		return "BatchSpec[queue=" + this.queue + ", jobs=" + this.jobs.size() + ", open=" + this.open + "]";
	}

}
