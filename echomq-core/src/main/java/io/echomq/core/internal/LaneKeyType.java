package io.echomq.core.internal;

/**
 * The per-lane keys of a queue, each {@code <prefix>:{<queue>}:lane:<lane>:<suffix>}.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public enum LaneKeyType {

	/**
	 * Sorted set of the lane's claimable ids, scored like the queue's pending set: the
	 * location of a pending job enqueued with this lane key (its row's {@code state} is
	 * {@code pending} and its {@code lane} field names the lane).
	 */
	PENDING("pending"),

	/**
	 * Set of ids claimed from the lane that may still be active: the per-lane cap counts
	 * those still in the queue's active set and drops the others. Not a location.
	 */
	HELD("held"),

	/**
	 * Sorted set logging the lane's recent starts, for the per-lane rate limit. Not a
	 * location.
	 */
	STARTS("starts");

	private final String suffix;

	LaneKeyType(String suffix) {
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
