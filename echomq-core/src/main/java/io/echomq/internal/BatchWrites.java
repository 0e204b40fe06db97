package io.echomq.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.JobRef;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Enqueues;
import io.echomq.core.internal.Flows;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.jspecify.annotations.Nullable;

/**
 * How the template writes a batch: everything checked and every payload written by the
 * converter first (nothing is written when any of it is wrong), then the callbacks (each
 * a parent of a flow waiting for the batch), the batch, its jobs (each chunk counted on
 * the batch before it is written) and the seal.
 *
 * @author EchoMQ
 */
public final class BatchWrites extends TemplateWrites {

	/** Most jobs written by one call. */
	public static final int MAX_JOBS = 100_000;

	private static final int CHUNK = 1000;

	public BatchWrites(Enqueues enqueues, Flows flows, Batches batches, QueuePartitioning partitioning,
			BiFunction<String, Object, String> serializer, BiFunction<String, EnqueueOptions, EnqueueSpec> specs) {
		super(enqueues, flows, batches, partitioning, serializer, specs);
	}

	/**
	 * Check a batch and mint its ids, writing nothing.
	 * @param spec the batch
	 * @return the plan
	 */
	public Plan plan(BatchSpec spec) {
		this.serializer.apply(spec.queue(), "");
		checkNotPartitioned(spec.queue(), "the home of a batch");
		if (spec.jobs().isEmpty() && !spec.isOpen()) {
			throw new IllegalArgumentException(
					"A batch of queue '" + spec.queue() + "' needs at least one job, or must be left open");
		}
		Map<String, Job> callbacks = new LinkedHashMap<>();
		callback("success", spec.onSuccess(), callbacks);
		callback("complete", spec.onComplete(), callbacks);
		callback("death", spec.onDeath(), callbacks);
		return new Plan(spec.queue(), JobId.mint(), jobs(spec.jobs()), callbacks, !spec.isOpen());
	}

	/**
	 * Check jobs to add to a batch and mint their ids, writing nothing.
	 * @param jobs the jobs
	 * @return the planned jobs
	 */
	public List<Job> jobs(List<FlowSpec> jobs) {
		if (jobs.size() > MAX_JOBS) {
			throw new IllegalArgumentException(
					"At most " + MAX_JOBS + " jobs are added to a batch at once, was " + jobs.size());
		}
		List<Job> planned = new ArrayList<>(jobs.size());
		for (FlowSpec job : jobs) {
			if (!job.children().isEmpty()) {
				throw new IllegalArgumentException(
						"A job of a batch (queue '" + job.queue() + "') cannot have children: use a flow");
			}
			planned.add(job(job, "a job of a batch"));
		}
		return planned;
	}

	private void callback(String kind, @Nullable FlowSpec spec, Map<String, Job> callbacks) {
		if (spec == null) {
			return;
		}
		EnqueueOptions options = spec.options();
		if (!spec.children().isEmpty() || options.delay() != null || options.runAt() != null
				|| options.lane() != null) {
			throw new IllegalArgumentException("The " + kind + " callback of a batch (queue '" + spec.queue()
					+ "') runs when the batch calls for it: it cannot have children, a delay, a run-at or a lane");
		}
		callbacks.put(kind, job(spec, "a callback of a batch"));
	}

	private Job job(FlowSpec spec, String what) {
		String queue = spec.queue();
		String text = this.serializer.apply(queue, spec.payload());
		checkNotPartitioned(queue, what);
		EnqueueOptions options = spec.options();
		if (options.unique() != null || options.partitionKey() != null) {
			throw new IllegalArgumentException(
					"A job of a batch (queue '" + queue + "') cannot have a unique key or a partition key");
		}
		return new Job(queue, JobId.mint(), text, options);
	}

	private void checkNotPartitioned(String queue, String what) {
		if (this.partitioning.forQueue(queue).isPartitioned()) {
			throw new IllegalArgumentException("Queue '" + queue + "' is partitioned: it cannot be " + what + " yet");
		}
	}

	/**
	 * Write a planned batch: its callbacks, the batch, its jobs, the seal.
	 * @param plan the plan
	 * @throws PartialEnqueueException if a write failed after others had applied
	 */
	public void write(Plan plan) {
		List<JobRef> written = new ArrayList<>();
		JobRef batch = null;
		try {
			for (Job callback : plan.callbacks().values()) {
				this.flows.createParent(callback.queue(), callback.id(), callback.text(),
						this.specs.apply(callback.queue(), callback.options()), List.of(plan.queue() + "/" + plan.id()),
						Map.of());
				written.add(new JobRef(callback.queue(), callback.id()));
			}
			Map<String, String> targets = new LinkedHashMap<>();
			plan.callbacks().forEach((kind, callback) -> targets.put(kind, callback.queue() + "/" + callback.id()));
			this.batches.open(plan.queue(), plan.id(), targets);
			batch = new JobRef(plan.queue(), plan.id());
		}
		catch (RuntimeException ex) {
			throw partial(plan.queue(), written, null, 0, ex);
		}
		add(plan.queue(), plan.id(), plan.jobs(), written, batch);
		if (plan.sealed()) {
			try {
				this.batches.seal(plan.queue(), plan.id());
			}
			catch (RuntimeException ex) {
				throw partial(plan.queue(), written, batch, 0, ex);
			}
		}
	}

	/**
	 * The handle of a written batch.
	 * @param plan the batch as it was written
	 * @return its handle
	 */
	public static BatchJob batchJob(Plan plan) {
		return new BatchJob(plan.queue(), plan.id(), plan.jobs().stream().map(BatchWrites::flowJob).toList(),
				callback(plan, "success"), callback(plan, "complete"), callback(plan, "death"));
	}

	private static @Nullable FlowJob callback(Plan plan, String kind) {
		Job job = plan.callbacks().get(kind);
		return (job != null) ? flowJob(job) : null;
	}

	/**
	 * Read a batch's status from its row.
	 * @param queue the batch's home queue
	 * @param batch the batch id
	 * @param row the batch row's fields, empty when there is none
	 * @return the status, or {@code null} when there is no row
	 */
	public static @Nullable BatchStatus status(String queue, JobId batch, Map<String, String> row) {
		String state = row.get("state");
		if (state == null) {
			return null;
		}
		long total = Long.parseLong(row.getOrDefault("total", "0"));
		long completed = Long.parseLong(row.getOrDefault("completed", "0"));
		long dead = Long.parseLong(row.getOrDefault("dead", "0"));
		return new BatchStatus(queue, batch, state, total, total - completed - dead, completed, dead,
				batchCallback(row, "success"), batchCallback(row, "complete"), batchCallback(row, "death"));
	}

	private static BatchStatus.@Nullable Callback batchCallback(Map<String, String> row, String kind) {
		String target = row.get("on_" + kind);
		if (target == null) {
			return null;
		}
		int slash = target.lastIndexOf('/');
		return new BatchStatus.Callback(target.substring(0, slash), JobId.parse(target.substring(slash + 1)),
				row.get("fired:" + kind));
	}

	/**
	 * Write jobs to an open batch, chunk by chunk, each counted on the batch first.
	 * @param queue the batch's home queue
	 * @param batch the batch id
	 * @param jobs the planned jobs
	 * @param written the jobs written so far, which this adds to
	 * @param opened the batch when this write opened it, else {@code null}
	 */
	public void add(String queue, JobId batch, List<Job> jobs, List<JobRef> written, @Nullable JobRef opened) {
		int from = 0;
		while (from < jobs.size()) {
			Job first = jobs.get(from);
			int to = from + 1;
			while (to < jobs.size() && to - from < CHUNK && jobs.get(to).queue().equals(first.queue())
					&& jobs.get(to).options().equals(first.options())) {
				to++;
			}
			List<Job> chunk = jobs.subList(from, to);
			try {
				this.batches.addJobs(queue, batch, first.queue(), chunk.stream().map(Job::id).toList(),
						chunk.stream().map(Job::text).toList(), this.specs.apply(first.queue(), first.options()),
						this.enqueues);
			}
			catch (Batches.CountedJobsException ex) {
				int enqueued = 0;
				if (ex.getCause() instanceof PartialEnqueueException part) {
					for (JobId id : part.getEnqueued()) {
						written.add(new JobRef(first.queue(), id));
					}
					part.getUnknown().forEach((id) -> written.add(new JobRef(first.queue(), id)));
					enqueued = part.getEnqueued().size() + part.getUnknown().size();
				}
				throw partial(queue, written, opened, ex.counted() - enqueued, (RuntimeException) ex.getCause());
			}
			catch (RuntimeException ex) {
				throw partial(queue, written, opened, 0, ex);
			}
			chunk.forEach((job) -> written.add(new JobRef(job.queue(), job.id())));
			from = to;
		}
	}

	private static RuntimeException partial(String queue, List<JobRef> written, @Nullable JobRef opened,
			int countedNotWritten, RuntimeException ex) {
		if (written.isEmpty() && opened == null && countedNotWritten == 0) {
			return ex;
		}
		return new PartialEnqueueException(queue, written.size() + 1 + ((opened != null) ? 1 : 0), written, opened,
				countedNotWritten, List.of(), ex);
	}

	public static FlowJob flowJob(Job job) {
		return new FlowJob(job.queue(), job.id(), List.of());
	}

	/**
	 * A planned batch.
	 *
	 * @param queue its home queue
	 * @param id its id
	 * @param jobs its jobs
	 * @param callbacks its callbacks by kind (success, complete, death)
	 * @param sealed whether it is sealed once written
	 */
	public record Plan(String queue, JobId id, List<Job> jobs, Map<String, Job> callbacks, boolean sealed) {

	}

	/**
	 * A planned job of a batch, or a callback.
	 *
	 * @param queue its queue
	 * @param id its id
	 * @param text its payload text
	 * @param options its options
	 */
	public record Job(String queue, JobId id, String text, EnqueueOptions options) {

	}

}
