package io.echomq.core;


/**
 * What a reap tick moved.
 *
 * @param requeued expired leases moved back to pending
 * @param dead expired leases that had used their last attempt, moved to dead
 * @author EchoMQ
 * @since 0.1.0
 */
public record ReapResult(int requeued, int dead) {

	/** Nothing reaped. */
	public static final ReapResult NONE = new ReapResult(0, 0);

	/**
	 * Return how many ids the tick moved.
	 * @return the total
	 */
	public int total() {
		return this.requeued + this.dead;
	}

}
