package io.echomq.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;

import org.jspecify.annotations.Nullable;

/**
 * A child of a flow as its parent sees it: where it was enqueued and, once it has
 * finished, how.
 *
 * @param queue the child's queue
 * @param id the child's id
 * @param outcome {@code completed}, {@code failed} (dead, ignored by policy),
 * {@code removed} (dead, cancelled or deleted, dropped by policy), {@code dead},
 * {@code cancelled} or {@code deleted}; {@code null} while it has not finished
 * @author EchoMQ
 * @since 0.1.0
 */
public record FlowChild(String queue, JobId id, @Nullable String outcome) {

	/** The parent's row field that lists its children, {@code <queue>/<id>} each. */
	public static final String CHILDREN_FIELD = "flow_children";

	/** The prefix of the parent's row field that records a finished child's outcome. */
	public static final String OUTCOME_PREFIX = "child:";

	/**
	 * Return the children a parent's row fields name, in the order they were added.
	 * @param fields the parent's row fields (as a handler's context gives them)
	 * @return the children, empty for a job that is not a parent
	 */
	public static List<FlowChild> of(Map<String, String> fields) {
		String listed = fields.get(CHILDREN_FIELD);
		if (listed == null || listed.isEmpty()) {
			return List.of();
		}
		List<FlowChild> children = new ArrayList<>();
		for (String ref : listed.split(" ")) {
			int slash = ref.indexOf('/');
			if (slash > 0 && JobId.isValid(ref.substring(slash + 1))) {
				children.add(new FlowChild(ref.substring(0, slash), JobId.parse(ref.substring(slash + 1)),
						fields.get(OUTCOME_PREFIX + ref)));
			}
		}
		return List.copyOf(children);
	}

}
