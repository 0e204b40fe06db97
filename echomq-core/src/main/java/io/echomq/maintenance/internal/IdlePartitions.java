package io.echomq.maintenance.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.QueuePartitions;

/**
 * Skips partitions of a partitioned queue that a tick found idle: after each idle tick a
 * partition sits out twice as many ticks as before, up to {@value #MAX_SKIP}, and any
 * tick that moves a job makes it ticked every time again. So the idle cost of a tick over
 * {@code N} partitions is about {@code N / (MAX_SKIP + 1)} calls rather than {@code N},
 * at the price of a due job on an idle partition waiting up to {@code MAX_SKIP} more
 * intervals. Queues with one partition are never skipped: their cost and timing are
 * unchanged.
 *
 * @author EchoMQ
 */
final class IdlePartitions {

	/** Most ticks an idle partition sits out in a row. */
	static final int MAX_SKIP = 7;

	private final Map<String, int[]> state = new ConcurrentHashMap<>();

	/**
	 * Return whether this tick should pass over the queue (and count the skip).
	 */
	boolean skip(String queue) {
		if (queue.indexOf(QueuePartitions.SEPARATOR) < 0) {
			return false;
		}
		int[] entry = this.state.get(queue);
		if (entry == null || entry[1] == 0) {
			return false;
		}
		entry[1]--;
		return true;
	}

	/**
	 * Record what a tick of the queue found.
	 */
	void ticked(String queue, boolean moved) {
		if (queue.indexOf(QueuePartitions.SEPARATOR) < 0) {
			return;
		}
		if (moved) {
			this.state.remove(queue);
			return;
		}
		int[] entry = this.state.computeIfAbsent(queue, (name) -> new int[2]);
		entry[0] = Math.min(MAX_SKIP, Math.max(1, entry[0] * 2));
		entry[1] = entry[0];
	}

}
