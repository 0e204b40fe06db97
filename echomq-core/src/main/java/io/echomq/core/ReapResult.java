package io.echomq.core;

/**
 * What a reap tick moved.
 *
 * @param requeued expired leases moved back to pending
 * @param dead expired leases that had used their last attempt, moved to dead
 * @param skipped expired ids left where they were because no transition can move them (no
 * row, a malformed row, a state other than {@code active}, not a JOB id): they wait for
 * the quarantine sweep
 * @author EchoMQ
 * @since 0.1.0
 */
public record ReapResult(int requeued, int dead, int skipped) {

	/** Nothing reaped. */
	public static final ReapResult NONE = new ReapResult(0, 0, 0);

	/**
	 * Create a result of a reap that skipped nothing.
	 * @param requeued expired leases moved back to pending
	 * @param dead expired leases moved to dead
	 */
	public ReapResult(int requeued, int dead) {
		this(requeued, dead, 0);
	}

	/**
	 * Return how many ids the tick moved.
	 * @return the total
	 */
	public int total() {
		return this.requeued + this.dead;
	}

}
