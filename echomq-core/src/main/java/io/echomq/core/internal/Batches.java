package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.flow.ChildFailure;

import org.springframework.dao.DataAccessException;
import org.springframework.util.Assert;

/**
 * The batch side of the engine (docs/flows.md#batches): a batch is a node of a flow in
 * its home queue's {@code batches} location that counts its jobs as a parent counts its
 * children, and fires its callbacks (parents of flows waiting for it) through the outbox
 * and the relay.
 *
 * @author EchoMQ
 */
public final class Batches extends EnginePart {

	/** The fields {@link #status} reads from a batch's row. */
	public static final List<String> STATUS_FIELDS = List.of("state", "total", "completed", "dead", "created_at",
			"finished_at", "on_success", "on_complete", "on_death", "fired:success", "fired:complete", "fired:death");

	Batches(EngineState state) {
		super(state);
	}

	/**
	 * Write a new open batch without jobs, naming its callbacks.
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @param callbacks {@code success}, {@code complete} or {@code death} to the
	 * callback's {@code <queue>/<id>}, written before as a parent waiting for the batch
	 */
	public void open(String queue, JobId id, Map<String, String> callbacks) {
		QueuePartitions.validateEngineName(queue);
		QueueKeys keys = this.state.keys(queue);
		List<String> args = new ArrayList<>(1 + 2 * callbacks.size());
		args.add(id.toString());
		callbacks.forEach((kind, target) -> {
			args.add(kind);
			args.add(target);
		});
		this.state.learnClock(this.executor.execute(this.scripts.batchOpen,
				List.of(keys.batches(), keys.batch(id.toString())), args));
	}

	/**
	 * Count jobs about to be written to an open batch, or take back (a negative count)
	 * jobs that were counted and never written.
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @param count how many jobs, negative to take back
	 * @return the batch's new total
	 * @throws IllegalStateException if the batch does not exist or is sealed
	 */
	public long add(String queue, JobId id, int count) {
		Assert.isTrue(count != 0, "'count' must not be 0");
		try {
			List<Object> reply = this.executor.execute(this.scripts.batchAdd,
					List.of(this.state.keys(queue).batch(id.toString())), List.of(Integer.toString(count)));
			return Replies.number(reply.get(0));
		}
		catch (DataAccessException ex) {
			throw refused(queue, id, ex);
		}
	}

	/**
	 * Add jobs of one queue and one spec to an open batch: counted on the batch first,
	 * then enqueued, their rows naming the batch ({@link #memberFields}).
	 * @param batchQueue the batch's home queue
	 * @param batchId the batch id
	 * @param queue the jobs' queue
	 * @param ids the jobs' ids
	 * @param payloads their payload texts
	 * @param spec how to enqueue them
	 * @param enqueues the enqueue side of the engine
	 * @throws IllegalStateException if the batch does not exist or is sealed (nothing
	 * written)
	 */
	public void addJobs(String batchQueue, JobId batchId, String queue, List<JobId> ids, List<String> payloads,
			EnqueueSpec spec, Enqueues enqueues) {
		add(batchQueue, batchId, ids.size());
		try {
			enqueues.enqueueAll(queue, ids, payloads, spec.withEngineFields(memberFields(batchQueue, batchId)));
		}
		catch (RuntimeException ex) {
			throw new CountedJobsException(ids.size(), ex);
		}
	}

	/**
	 * Thrown by {@link #addJobs} when the jobs were counted on the batch and their write
	 * then failed: the cause says what was written of them.
	 */
	public static final class CountedJobsException extends RuntimeException {

		private final int counted;

		CountedJobsException(int counted, RuntimeException cause) {
			super(cause.getMessage(), cause);
			this.counted = counted;
		}

		/**
		 * Return how many jobs the batch counted for this write.
		 * @return the count
		 */
		public int counted() {
			return this.counted;
		}

	}

	/**
	 * Seal a batch: it takes no more jobs and fires its callbacks once its last job has
	 * finished (at once when every job has). Sealing twice changes nothing.
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @return the batch's state: {@code sealed} or {@code finished}
	 * @throws IllegalStateException if the batch does not exist
	 */
	public String seal(String queue, JobId id) {
		QueueKeys keys = this.state.keys(queue);
		try {
			List<Object> reply = this.executor.execute(this.scripts.batchSeal,
					List.of(keys.batches(), keys.batch(id.toString()), keys.outbox()), List.of(id.toString()));
			return Replies.string(reply.get(0));
		}
		catch (DataAccessException ex) {
			throw refused(queue, id, ex);
		}
	}

	/**
	 * Read a batch's row: the {@link #STATUS_FIELDS} it has.
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @return the fields, empty when there is no such batch
	 */
	public Map<String, String> status(String queue, JobId id) {
		List<Object> values = this.template.opsForHash()
			.multiGet(this.state.keys(queue).batch(id.toString()), new ArrayList<>(STATUS_FIELDS));
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = 0; i < STATUS_FIELDS.size(); i++) {
			if (values.get(i) != null) {
				fields.put(STATUS_FIELDS.get(i), values.get(i).toString());
			}
		}
		return fields;
	}

	/**
	 * Read the first open or sealed batches of a queue, oldest first, from its
	 * {@code batches} location.
	 * @param queue the batches' home queue
	 * @param limit most ids to read
	 * @return the ids, oldest first
	 */
	public List<String> listed(String queue, int limit) {
		Assert.isTrue(limit >= 1, "'limit' must be at least 1");
		Set<String> ids = this.template.opsForZSet().range(this.state.keys(queue).batches(), 0, limit - 1);
		return (ids != null) ? new ArrayList<>(ids) : List.of();
	}

	/**
	 * Count the open and sealed batches of a queue: the size of its {@code batches}
	 * location.
	 * @param queue the batches' home queue
	 * @return how many
	 */
	public long listedCount(String queue) {
		Long count = this.template.opsForZSet().zCard(this.state.keys(queue).batches());
		return (count != null) ? count : 0;
	}

	/**
	 * Return the row fields that make a job a member of a batch: a child of a flow whose
	 * parent is the batch, always through the outbox (never {@code flow_local}).
	 * @param batchQueue the batch's home queue
	 * @param batchId the batch id
	 * @return the fields
	 */
	public static Map<String, String> memberFields(String batchQueue, JobId batchId) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put(Flows.PARENT_QUEUE_FIELD, batchQueue);
		fields.put(Flows.PARENT_ID_FIELD, batchId.toString());
		fields.put(Flows.POLICY_FIELD, ChildFailure.FAIL_PARENT.value());
		return fields;
	}

	private static RuntimeException refused(String queue, JobId id, DataAccessException ex) {
		String message = String.valueOf(ex.getMessage());
		if (message.contains("EMQSEALED")) {
			return new IllegalStateException(
					"Batch " + id + " of queue '" + queue + "' is sealed and takes no more jobs", ex);
		}
		if (message.contains("EMQNOBATCH")) {
			return new IllegalStateException("No batch " + id + " in queue '" + queue + "'", ex);
		}
		return ex;
	}

}
