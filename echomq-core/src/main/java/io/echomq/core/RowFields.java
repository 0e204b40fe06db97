package io.echomq.core;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The names of the fields of a job's row, the hash {@code emq:{q}:job:<id>}, that an
 * application or another client may read ({@code docs/protocol.md} gives every field and
 * its encoding). The stored format promises them: a minor version may add fields, never
 * rename one.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public final class RowFields {

	/** The state: the location the id is in ({@link JobState#value()}). */
	public static final String STATE = "state";

	/** The attempts the job has been claimed for: the fencing token. */
	public static final String ATTEMPTS = "attempts";

	/** The attempt after which a failure dead-letters the job. */
	public static final String MAX_ATTEMPTS = "max_attempts";

	/** The payload text (a payload over the inline limit is split in {@code +} parts). */
	public static final String PAYLOAD = "payload";

	/** The job's own handler timeout, in milliseconds. */
	public static final String TIMEOUT = "timeout";

	/** The name of the job's unique key ({@link UniqueKey}). */
	public static final String UNIQUE = "unique";

	/** The unique key's mode ({@link UniqueMode#value()}). */
	public static final String UNIQUE_MODE = "unique_mode";

	/** A throttle key's window, in milliseconds. */
	public static final String UNIQUE_TTL = "unique_ttl";

	/** The job's lane key. */
	public static final String LANE = "lane";

	/** The node that last claimed the job ({@link EchoMqNode}). */
	public static final String CLAIMED_BY = "claimed_by";

	/** The queue of the flow parent a child counts for. */
	public static final String FLOW_PARENT_QUEUE = "flow_parent_queue";

	/** The id of the flow parent a child counts for. */
	public static final String FLOW_PARENT_ID = "flow_parent_id";

	/**
	 * How a child's death counts for its parent ({@code io.echomq.flow.ChildFailure}).
	 */
	public static final String FLOW_POLICY = "flow_policy";

	/** {@code 1} when a child's parent is on the child's own slot. */
	public static final String FLOW_LOCAL = "flow_local";

	/** A flow parent's children, {@code queue/id} separated by single spaces, in the flow spec's order. */
	public static final String FLOW_CHILDREN = "flow_children";

	/**
	 * The fields EchoMQ owns: an enqueue's extra fields may not use them, nor names that
	 * start with {@code +} (payload parts).
	 */
	public static final Set<String> RESERVED = Set.of(STATE, ATTEMPTS, MAX_ATTEMPTS, PAYLOAD, "enqueued_at", "ready_at",
			"run_at", "priority", "last_error", "dead_at", "completed_at", "released", TIMEOUT, "quarantined_from",
			"quarantine_reason", UNIQUE, UNIQUE_MODE, UNIQUE_TTL, "cancel_requested_at", LANE, CLAIMED_BY, "result",
			"progress", "progress_data", FLOW_PARENT_QUEUE, FLOW_PARENT_ID, FLOW_POLICY, FLOW_LOCAL, FLOW_CHILDREN,
			"children_left");

	private RowFields() {
	}

	/**
	 * Return the handler timeout a row's fields carry ({@link #TIMEOUT}).
	 * @param fields the row's fields
	 * @return the timeout, or {@code null} when the row sets none or an unreadable one
	 */
	public static @Nullable Duration timeout(Map<String, String> fields) {
		String millis = fields.get(TIMEOUT);
		if (millis == null) {
			return null;
		}
		try {
			long value = Long.parseLong(millis);
			return (value > 0) ? Duration.ofMillis(value) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
