package io.echomq.inspect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.Experimental;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.Flows;
import io.echomq.core.internal.Results;
import io.echomq.flow.FlowChild;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Reads the whole flow a job belongs to (docs/flows.md), for dashboards and endpoints: up
 * from the job through each row's {@code flow_parent_queue}/{@code flow_parent_id} to the
 * root, then down through each parent's {@code flow_children}, depth first in spec order.
 * One {@code HGETALL} per job (and a result read per completed or gone job); it draws at
 * most {@value #MAX_DRAWN} jobs and says when it stopped short. Reads only; never part of
 * a transition.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Experimental
public class FlowTree {

	/** Most jobs one read draws (a flow has at most 10,000). */
	public static final int MAX_DRAWN = 500;

	/** Most levels walked up from a job to its root (a flow has at most 16). */
	private static final int MAX_DEPTH = 16;

	private final QueueInspector inspector;

	private final Results results;

	/**
	 * Create a reader.
	 * @param engine the engine whose keyspace is read
	 */
	public FlowTree(EchoMqEngine engine) {
		Engine jobs = Engine.of(engine);
		this.inspector = new QueueInspector(jobs);
		this.results = jobs.results();
	}

	/**
	 * Read the flow a job belongs to.
	 * @param queue the job's engine queue (its partition for a partitioned queue)
	 * @param id the job id
	 * @param shown how a stored result is shown (sanitized, or as the converter wrote it)
	 * @return the flow, or {@code null} when the queue has no row for the job; a job that
	 * is in no flow is a flow of one job
	 */
	public @Nullable Flow read(String queue, JobId id, Function<String, @Nullable Object> shown) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(id, "'id' must not be null");
		Assert.notNull(shown, "'shown' must not be null");
		Map<String, String> row = this.inspector.row(queue, id);
		if (row.isEmpty()) {
			return null;
		}
		String rootQueue = queue;
		JobId rootId = id;
		Map<String, String> rootRow = row;
		for (int level = 1; level < MAX_DEPTH; level++) {
			String parentQueue = rootRow.get(Flows.PARENT_QUEUE_FIELD);
			String parentId = rootRow.get(Flows.PARENT_ID_FIELD);
			if (parentQueue == null || parentId == null || !JobId.isValid(parentId)) {
				break;
			}
			Map<String, String> parentRow = this.inspector.row(parentQueue, JobId.parse(parentId));
			if (parentRow.isEmpty()) {
				break;
			}
			rootQueue = parentQueue;
			rootId = JobId.parse(parentId);
			rootRow = parentRow;
		}
		return draw(rootQueue, rootId, rootRow, ref(queue, id), shown);
	}

	private Flow draw(String rootQueue, JobId rootId, Map<String, String> rootRow, String asked,
			Function<String, @Nullable Object> shown) {
		List<Job> jobs = new ArrayList<>();
		Map<String, Long> counts = new LinkedHashMap<>();
		long known = 1;
		Deque<Visit> stack = new ArrayDeque<>();
		// a root whose own parent's row is gone (finished, not retained) still names it
		String parentQueue = rootRow.get(Flows.PARENT_QUEUE_FIELD);
		String parentId = rootRow.get(Flows.PARENT_ID_FIELD);
		String above = (parentQueue != null && parentId != null) ? parentQueue + "/" + parentId : null;
		stack.push(new Visit(rootQueue, rootId, above, null, 0, rootRow));
		while (!stack.isEmpty() && jobs.size() < MAX_DRAWN) {
			Visit visit = stack.pop();
			Map<String, String> row = (visit.row() != null) ? visit.row()
					: this.inspector.row(visit.queue(), visit.id());
			List<FlowChild> children = FlowChild.of(row);
			known += children.size();
			Job job = job(visit, row, children, shown);
			jobs.add(job);
			counts.merge(job.state(), 1L, Long::sum);
			for (int i = children.size() - 1; i >= 0; i--) {
				FlowChild child = children.get(i);
				stack.push(new Visit(child.queue(), child.id(), job.ref(), child.outcome(), visit.depth() + 1, null));
			}
		}
		return new Flow(ref(rootQueue, rootId), asked, jobs, counts, known, jobs.size() < known);
	}

	private Job job(Visit visit, Map<String, String> row, List<FlowChild> children,
			Function<String, @Nullable Object> shown) {
		boolean kept = !row.isEmpty();
		String state = row.get("state");
		String result = (!kept || JobState.COMPLETED.value().equals(state))
				? this.results.read(visit.queue(), visit.id()) : null;
		if (state == null) {
			// a completed job past its queue's retention keeps its result for the result
			// TTL
			state = (visit.outcome() != null) ? visit.outcome()
					: (result != null) ? JobState.COMPLETED.value() : "gone";
		}
		String left = row.get("children_left");
		return new Job(visit.queue(), visit.id().toString(), ref(visit.queue(), visit.id()), state, kept,
				visit.outcome(), number(row.get("progress")), (result != null) ? shown.apply(result) : null,
				visit.parent(), visit.depth(),
				children.stream().map((child) -> ref(child.queue(), child.id())).toList(),
				(left != null) ? number(left) : null, row.get("last_error"));
	}

	private static @Nullable Integer number(@Nullable String value) {
		if (value == null) {
			return null;
		}
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static String ref(String queue, JobId id) {
		return queue + "/" + id;
	}

	private record Visit(String queue, JobId id, @Nullable String parent, @Nullable String outcome, int depth,
			@Nullable Map<String, String> row) {

	}

	/**
	 * A flow as read.
	 *
	 * @param root the root's {@code <queue>/<id>}: the highest job whose row is there
	 * @param asked the {@code <queue>/<id>} of the job the flow was read from
	 * @param jobs the jobs drawn, depth first in spec order, at most
	 * {@value FlowTree#MAX_DRAWN}
	 * @param counts the jobs drawn in each state
	 * @param known how many jobs the drawn parents name, the root included
	 * @param truncated whether some known jobs were not drawn
	 */
	public record Flow(String root, String asked, List<Job> jobs, Map<String, Long> counts, long known,
			boolean truncated) {

	}

	/**
	 * A job of a flow.
	 *
	 * @param queue its queue
	 * @param id its id
	 * @param ref {@code <queue>/<id>}
	 * @param state the state its row names; without a row (a completed job past its
	 * queue's retention, a deleted one) how its parent recorded it finished, else
	 * {@code completed} while its result is stored, else {@code gone}
	 * @param kept whether its row is there
	 * @param outcome how its parent recorded it finished ({@code completed},
	 * {@code failed}, {@code removed}, {@code dead}), {@code null} while not recorded or
	 * for the root
	 * @param progress its last reported progress in percent, or {@code null}
	 * @param result its stored result, for a completed job, shown as the reader was told
	 * (sanitized unless shown); {@code null} if none
	 * @param parent its parent's {@code <queue>/<id>}; for the first job drawn, the
	 * parent its row names, whose row is gone; {@code null} for the root of a flow
	 * @param depth 0 for the root
	 * @param children its children's {@code <queue>/<id>}, in spec order
	 * @param childrenLeft how many children a waiting parent still waits for, or
	 * {@code null}
	 * @param lastError its last error, or {@code null}
	 */
	public record Job(String queue, String id, String ref, String state, boolean kept, @Nullable String outcome,
			@Nullable Integer progress, @Nullable Object result, @Nullable String parent, int depth,
			List<String> children, @Nullable Integer childrenLeft, @Nullable String lastError) {

	}

}
