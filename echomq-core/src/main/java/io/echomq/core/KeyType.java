package io.echomq.core;


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
	 * Sorted set of members no transition could move (not JOB ids, rows missing or
	 * breaking the row schema, a state naming another location), scored by the time they
	 * were quarantined (ms). Only the quarantine transition writes to it; nothing leaves it
	 * but by hand.
	 */
	QUARANTINE("quarantine"),

	/** Hash of cumulative counters (enqueued, completed, retried, ...). */
	METRICS("metrics"),

	/** Short list of wake-up tokens that idle consumers block on. */
	WAKE("wake"),

	/**
	 * Sorted set of the lanes that have ready work, the claim's round-robin ring: the
	 * lowest score is the next lane's turn, and a lane served goes to the tail. Not a
	 * location: the lanes' pending ids are in their own {@link LaneKeyType#PENDING} keys.
	 */
	LANES("lanes"),

	/**
	 * Sorted set logging the queue's recent starts (one member per claim, scored by server
	 * time, ms): the sliding window of the queue-wide rate limit. Not a location.
	 */
	STARTS("starts"),

	/**
	 * String set (with a TTL) while a concurrency cap holds claims back, so that the
	 * transitions freeing a slot push a wake-up. Not a location.
	 */
	THROTTLED("throttled");

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
