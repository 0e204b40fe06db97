package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.CancelResult;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.core.RowFields;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.flow.ChildFailure;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * The flow side of the engine (docs/flows.md): a parent written to {@link KeyType#WAITING
 * waiting} before its children, children that name their parent on their row, and the
 * relay that carries a finished child's outbox record to a parent on another slot.
 *
 * @author EchoMQ
 */
public final class Flows extends EnginePart {

	/** A child's row field: its parent's queue. */
	public static final String PARENT_QUEUE_FIELD = RowFields.FLOW_PARENT_QUEUE;

	/** A child's row field: its parent's id. */
	public static final String PARENT_ID_FIELD = RowFields.FLOW_PARENT_ID;

	/** A child's row field: its {@link ChildFailure} value. */
	public static final String POLICY_FIELD = RowFields.FLOW_POLICY;

	/** A child's row field: {@code 1} when its parent is in its own queue (slot). */
	public static final String LOCAL_FIELD = RowFields.FLOW_LOCAL;

	private static final Set<String> OUTCOMES = Set.of("completed", "failed", "removed", "dead", "cancelled", "deleted",
			"skipped");

	/** The verb of a record that re-opens the parent of a replayed child. */
	private static final String REOPEN = "reopen";

	/** The verb of a record that cancels a child of a cancelled or deleted parent. */
	private static final String CANCEL = "cancel";

	private final QueueAdmin admin;

	Flows(EngineState state, QueueAdmin admin) {
		super(state);
		this.admin = admin;
	}

	/**
	 * Write a parent of a flow: its row with state {@code waiting} and
	 * {@code children_left}, its id in waiting, in one script.
	 * @param queue the parent's queue
	 * @param id its id
	 * @param payload its payload text
	 * @param spec its attempts, priority and row fields (no delay, lane or unique key)
	 * @param children its children, {@code <queue>/<id>} each
	 * @param parentOf the fields naming its own parent ({@link #childFields}), empty for
	 * the root
	 */
	public void createParent(String queue, JobId id, String payload, EnqueueSpec spec, List<String> children,
			Map<String, String> parentOf) {
		QueuePartitions.validateEngineName(queue);
		Assert.notEmpty(children, "a parent needs at least one child");
		QueueKeys keys = this.state.keys(queue);
		Map<String, String> fields = new LinkedHashMap<>(spec.rowFields());
		// a parent runs when its children have finished: it takes no deadline
		// (flow_parent.lua)
		fields.remove(EnqueueSpec.EXPIRE_IN_FIELD);
		fields.remove(io.echomq.core.RowFields.EXPIRES_AT);
		fields.putAll(parentOf);
		fields.put(io.echomq.flow.FlowChild.CHILDREN_FIELD, String.join(" ", children));
		List<String> args = new ArrayList<>(5 + 2 * fields.size());
		args.add(id.toString());
		args.add(Integer.toString(spec.maxAttempts()));
		args.add(Integer.toString(spec.priority()));
		args.add(Integer.toString(children.size()));
		args.add(payload);
		fields.forEach((name, value) -> {
			args.add(name);
			args.add(value);
		});
		List<String> scriptKeys = new ArrayList<>(List.of(keys.waiting(), keys.row(id), keys.metrics()));
		this.state.declareEvents(queue, scriptKeys, args);
		List<Object> reply = this.executor.execute(this.scripts.flowParent, scriptKeys, args);
		this.state.learnClock(reply);
	}

	/**
	 * Enqueue a child of a flow that has no children of its own, its row naming its
	 * parent.
	 * @param queue the child's queue
	 * @param id its id
	 * @param payload its payload text
	 * @param spec how to enqueue it
	 * @param parentOf the fields naming its parent ({@link #childFields})
	 * @param enqueues the enqueue side of the engine
	 */
	public void enqueueChild(String queue, JobId id, String payload, EnqueueSpec spec, Map<String, String> parentOf,
			Enqueues enqueues) {
		enqueues.enqueueAll(queue, List.of(id), List.of(payload), spec.withEngineFields(parentOf));
	}

	/**
	 * Return the row fields that name a child's parent.
	 * @param childQueue the child's queue
	 * @param parentQueue the parent's queue
	 * @param parentId the parent's id
	 * @param policy what the child's death does to the parent
	 * @return the fields
	 */
	public static Map<String, String> childFields(String childQueue, String parentQueue, JobId parentId,
			ChildFailure policy) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put(PARENT_QUEUE_FIELD, parentQueue);
		fields.put(PARENT_ID_FIELD, parentId.toString());
		fields.put(POLICY_FIELD, policy.value());
		if (childQueue.equals(parentQueue)) {
			fields.put(LOCAL_FIELD, "1");
		}
		return fields;
	}

	/**
	 * Return the oldest records of a queue's outbox.
	 * @param queue the children's queue
	 * @param max most records
	 * @return the records, {@code <outcome> <parent queue> <parent id> <child id>} each
	 * (then {@code <round>} for a replayed child; outcome {@code reopen} for its replay),
	 * or {@code cancel <child queue> <child id> <parent id>} for a child of a cancelled
	 * or deleted parent
	 */
	public List<String> outbox(String queue, int max) {
		Set<String> records = this.template.opsForZSet().range(this.state.keys(queue).outbox(), 0, max - 1);
		return (records != null) ? new ArrayList<>(records) : List.of();
	}

	/**
	 * The relay's first step: apply an outbox record on its target's slot (a child's
	 * outcome on its parent; a {@code cancel} on a child of a cancelled or deleted
	 * parent). Applying a record twice changes nothing.
	 * @param queue the queue whose outbox holds the record
	 * @param record the record
	 * @return whether it changed the target (false: applied before, the parent no longer
	 * waits, or the child has finished)
	 * @throws IllegalArgumentException if the record is malformed
	 */
	public boolean apply(String queue, String record) {
		String[] parts = record.split(" ");
		boolean settles = OUTCOMES.contains(parts[0]) || REOPEN.equals(parts[0]);
		Assert.isTrue(
				(parts.length == 4 || (settles && parts.length == 5 && parts[4].matches("[1-9][0-9]{0,14}")))
						&& (settles || CANCEL.equals(parts[0])) && JobId.isValid(parts[2]) && JobId.isValid(parts[3]),
				() -> "Malformed outbox record '" + record + "' in queue '" + queue + "'");
		if (CANCEL.equals(parts[0])) {
			try {
				QueuePartitions.validateEngineName(parts[1]);
			}
			catch (InvalidQueueNameException ex) {
				throw new IllegalArgumentException("Malformed outbox record '" + record + "' in queue '" + queue + "'",
						ex);
			}
			CancelResult.Outcome outcome = this.admin.cancel(parts[1], JobId.parse(parts[2])).outcome();
			// a refused cancel (a quarantined child) is the quarantine's business: the
			// record is not kept for ever
			return outcome == CancelResult.Outcome.CANCELLED || outcome == CancelResult.Outcome.REQUESTED;
		}
		QueueKeys parent = this.state.keys(parts[1]);
		List<String> keys = new ArrayList<>(List.of(parent.waiting(), parent.pending(), parent.dead(), parent.wake(),
				parent.rowPrefix() + parts[2], parent.batch(parts[2]), parent.outbox(), parent.batches()));
		// a parent this step ends (dead by a child, a callback skipped) tells its waiters
		parent.addNotify(keys);
		List<String> args = new ArrayList<>(
				List.of(parts[2], queue + "/" + parts[3], parts[0], (parts.length == 5) ? parts[4] : "0"));
		this.state.declareEvents(parts[1], keys, args);
		List<Object> reply = this.executor.execute(this.scripts.flowApply, keys, args);
		boolean applied = Replies.number(reply.get(0)) == 1;
		if (applied && mayWriteOutbox(parts[0], Replies.string(reply.get(1)))) {
			// the parent's side may have written its own queue's outbox (a batch firing a
			// callback, a dead or re-opened parent settling its own parent): relay it
			// now,
			// not at the next reap tick
			this.state.signals().outboxWritten(parts[1]);
		}
		return applied;
	}

	private static boolean mayWriteOutbox(String verb, @Nullable String state) {
		return !"completed".equals(verb) && !"failed".equals(verb) && !"removed".equals(verb)
				|| "finished".equals(state) || "dead".equals(state);
	}

	/**
	 * The relay's second step: remove an applied record from the outbox.
	 * @param queue the children's queue
	 * @param record the record
	 */
	public void acknowledge(String queue, String record) {
		this.executor.execute(this.scripts.flowAck, List.of(this.state.keys(queue).outbox()), List.of(record));
	}

	/**
	 * Relay up to {@code max} records of a queue's outbox: each applied on its parent's
	 * slot, then removed. A record whose apply fails stays for the next pass.
	 * @param queue the children's queue
	 * @param max most records
	 * @return how many records were relayed
	 */
	public int relay(String queue, int max) {
		int relayed = 0;
		for (String record : outbox(queue, max)) {
			try {
				apply(queue, record);
			}
			catch (IllegalArgumentException ex) {
				// a record no relay can apply would block none of the others; it is left
				// for an operator
				continue;
			}
			catch (ServerOutOfMemoryException ex) {
				throw ex;
			}
			acknowledge(queue, record);
			relayed++;
		}
		return relayed;
	}

}
