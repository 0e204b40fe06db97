package io.echomq.core.internal;

/**
 * The per-queue keys of the EchoMQ keyspace, each {@code <prefix>:{<queue>}:<suffix>}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum KeyType {

	/** Score-0 sorted set of claimable ids; byte order is mint order. */
	PENDING("pending"),

	/** Sorted set of claimed ids, scored by lease deadline (server time, ms). */
	ACTIVE("active"),

	/** Sorted set of delayed ids, scored by run-at (ms). */
	SCHEDULE("schedule"),

	/** Sorted set of dead-lettered ids, scored by the time they died (ms). */
	DEAD("dead"),

	/**
	 * Sorted set of completed ids a queue retains (see {@link io.echomq.core.Retention}),
	 * scored by the time they completed (ms). Empty unless the queue retains completed
	 * jobs.
	 */
	COMPLETED("completed"),

	/**
	 * Sorted set of members no transition could move (not JOB ids, rows missing or
	 * breaking the row schema, a state naming another location), scored by the time they
	 * were quarantined (ms). Only the quarantine transition writes to it; nothing leaves
	 * it but by hand.
	 */
	QUARANTINE("quarantine"),

	/** A parent of a flow waiting for its children (a location). */
	WAITING("waiting"),

	/**
	 * Records of finished children whose parent is on another slot, for the relay (not a
	 * location).
	 */
	OUTBOX("outbox"),

	/** Open and sealed batches of jobs with callbacks (a location of batches). */
	BATCHES("batches"),

	/** The prefix of a batch's row, {@code batch:<id>}. */
	BATCH("batch"),

	/** Hash of cumulative counters (enqueued, completed, retried, ...). */
	METRICS("metrics"),

	/**
	 * Hash of per-minute counts, field {@code <minute>:<kind>} ({@code minute} = epoch ms
	 * / 60,000, {@code kind} = {@code completed} or {@code failed}), written by the
	 * complete and retry scripts and kept to the last 120 minutes by them.
	 */
	MINUTES("minutes"),

	/** Short list of wake-up tokens that idle consumers block on. */
	WAKE("wake"),

	/** Hash of the queue's recurring schedules: name to definition. */
	SCHEDULES("schedules"),

	/** Sorted set of schedule names, scored by their next fire time (ms). */
	SCHEDULE_NEXT("schedule-next"),

	/** Hash of schedule names to the fire time (ms) of their last occurrence. */
	SCHEDULE_LAST("schedule-last"),

	/**
	 * String flag, present while the queue is paused cluster-wide: the claim script
	 * claims nothing while it exists. Its value is the reason; a timed pause expires by
	 * itself ({@code PX}).
	 */
	PAUSED("paused"),

	/**
	 * Sorted set of the lanes that have ready work, the claim's round-robin ring: the
	 * lowest score is the next lane's turn, and a lane served goes to the tail. Not a
	 * location: the lanes' pending ids are in their own {@link LaneKeyType#PENDING} keys.
	 */
	LANES("lanes"),

	/**
	 * Hash of the operator's controls of the queue's lanes ({@code lane_control.lua}):
	 * field {@code paused:<lane>} while a lane is paused (claims pass it over and take it
	 * out of the ring), {@code cap:<lane>} the most jobs an enqueue may leave in a lane's
	 * pending set. One key for every lane, so that a claim of many lanes reads their
	 * controls with one {@code HMGET}. Not a location.
	 */
	LANE_CONTROLS("lane-controls"),

	/**
	 * Sorted set logging the queue's recent starts (one member per claim, scored by
	 * server time, ms): the sliding window of the queue-wide rate limit. Not a location.
	 */
	STARTS("starts"),

	/**
	 * String set (with a TTL) while a concurrency cap holds claims back, so that the
	 * transitions freeing a slot push a wake-up. Not a location.
	 */
	THROTTLED("throttled"),

	/**
	 * Hash of the limits an operator set at run time ({@code set_limits.lua}): field
	 * {@code max_active}, {@code rate} and {@code period}, {@code lane_max_active},
	 * {@code lane_rate} and {@code lane_period}, {@code concurrency}, and
	 * {@code partitions} (how many partitions share the queue-wide limits). A stored
	 * value wins over the configured one at every claim that declares the key; an absent
	 * field is the configured value. Not a location.
	 */
	LIMITS("limits"),

	/**
	 * Hash of the nodes listening to the queue, node name to its listener's last beat
	 * ({@link io.echomq.inspect.NodeListener}), kept by
	 * {@link io.echomq.inspect.QueueNodes}: each running container beats every few
	 * seconds, an entry three intervals old is dead and pruned. Not a location.
	 */
	NODES("nodes"),

	/**
	 * Hash of what describes the queue's stored data: field {@code format}, the layout
	 * its rows and keys are written in ({@link StoredFormat}). Absent on a queue written
	 * before formats were recorded (format 1). Not a location.
	 */
	META("meta"),

	/**
	 * Sorted set of the ids a caller awaits ({@link Waiters}), scored by when the wait
	 * ends (ms), so that entries left by a caller that went away can be trimmed. Not a
	 * location.
	 */
	WAITERS("waiters"),

	/**
	 * The Pub/Sub channel a script that ends an awaited job publishes
	 * {@code <outcome> <id>} on ({@code includes/notify.lua}). A channel, not a key; it
	 * carries the queue's hash tag like every key.
	 */
	DONE("done"),

	/**
	 * Stream of the queue's job events, written by the transition scripts of a queue that
	 * opts in ({@link Events}), bounded by {@code MAXLEN ~}. Not a location.
	 */
	EVENTS("events");

	private final String suffix;

	KeyType(String suffix) {
		this.suffix = suffix;
	}

	/**
	 * Return the key suffix.
	 * @return the suffix, e.g. {@code pending}
	 */
	public String suffix() {
		return this.suffix;
	}

}
