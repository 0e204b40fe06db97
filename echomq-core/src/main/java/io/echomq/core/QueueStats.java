package io.echomq.core;

import java.util.Map;

/**
 * A snapshot of one queue: how many ids each location holds, and its cumulative
 * counters.
 *
 * @param queue the queue
 * @param pending ids waiting to be claimed
 * @param active ids leased to workers
 * @param schedule ids waiting for their run-at
 * @param dead dead-lettered ids
 * @param quarantine members no transition could move, set aside (see
 * {@link KeyType#QUARANTINE})
 * @param completed completed ids retained (see {@link Retention})
 * @param counters the queue's cumulative counters ({@code enqueued}, {@code completed},
 * {@code retried}, {@code dead}, {@code reaped}, {@code promoted}, ...)
 * @author EchoMQ
 * @since 0.1.0
 */
public record QueueStats(String queue, long pending, long active, long schedule, long dead, long quarantine,
		long completed, Map<String, Long> counters) {

	/**
	 * Create a snapshot.
	 * @param queue the queue
	 * @param pending pending ids
	 * @param active active ids
	 * @param schedule scheduled ids
	 * @param dead dead ids
	 * @param quarantine quarantined members
	 * @param completed retained completed ids
	 * @param counters the counters
	 */
	public QueueStats {
		counters = Map.copyOf(counters);
	}

	/**
	 * Return the count for one state.
	 * @param state the state
	 * @return how many ids are in that location
	 */
	public long count(JobState state) {
		return switch (state) {
			case PENDING -> this.pending;
			case ACTIVE -> this.active;
			case SCHEDULE -> this.schedule;
			case DEAD -> this.dead;
			case QUARANTINE -> this.quarantine;
			case COMPLETED -> this.completed;
		};
	}

}
