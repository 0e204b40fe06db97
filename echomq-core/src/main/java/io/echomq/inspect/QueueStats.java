package io.echomq.inspect;

import java.util.Map;

import io.echomq.core.JobState;
import io.echomq.core.Retention;

/**
 * A snapshot of one queue: how many ids each location holds, and its cumulative counters.
 *
 * @param queue the queue
 * @param pending ids waiting to be claimed, in the queue's own pending set and in its
 * lanes'
 * @param active ids leased to workers
 * @param schedule ids waiting for their run-at
 * @param dead dead-lettered ids
 * @param quarantine members no transition could move, set aside (see
 * {@link io.echomq.core.internal.KeyType#QUARANTINE})
 * @param completed completed ids retained (see {@link Retention})
 * @param counters the queue's cumulative counters ({@code enqueued}, {@code completed},
 * {@code retried}, {@code dead}, {@code reaped}, {@code promoted}, ...)
 * @param lanes pending ids per fair lane with ready work, in ring order (the next turn
 * first); empty for a queue without lanes
 * @param waiting parents of flows waiting for their children
 * @param batches open and sealed batches whose home queue this is (its {@code batches}
 * location)
 * @author EchoMQ
 * @since 0.1.0
 */
public record QueueStats(String queue, long pending, long active, long schedule, long dead, long quarantine,
		long completed, Map<String, Long> counters, Map<String, Long> lanes, long waiting, long batches) {

	/**
	 * Create a snapshot without batches.
	 * @param queue the queue
	 * @param pending pending ids
	 * @param active active ids
	 * @param schedule scheduled ids
	 * @param dead dead ids
	 * @param quarantine quarantined members
	 * @param completed retained completed ids
	 * @param counters the counters
	 * @param lanes pending ids per lane
	 * @param waiting waiting parents of flows
	 */
	public QueueStats(String queue, long pending, long active, long schedule, long dead, long quarantine,
			long completed, Map<String, Long> counters, Map<String, Long> lanes, long waiting) {
		this(queue, pending, active, schedule, dead, quarantine, completed, counters, lanes, waiting, 0);
	}

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
	 * @param lanes pending ids per lane
	 * @param waiting waiting parents of flows
	 * @param batches open and sealed batches
	 */
	public QueueStats {
		counters = Map.copyOf(counters);
		lanes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(lanes));
	}

	/**
	 * Create a snapshot of a queue without lanes.
	 * @param queue the queue
	 * @param pending pending ids
	 * @param active active ids
	 * @param schedule scheduled ids
	 * @param dead dead ids
	 * @param quarantine quarantined members
	 * @param completed completed ids kept by the queue's retention
	 * @param counters the counters
	 */
	public QueueStats(String queue, long pending, long active, long schedule, long dead, long quarantine,
			long completed, Map<String, Long> counters) {
		this(queue, pending, active, schedule, dead, quarantine, completed, counters, Map.of(), 0);
	}

	/**
	 * Create a snapshot of a queue without waiting parents.
	 * @param queue the queue
	 * @param pending pending ids
	 * @param active active ids
	 * @param schedule scheduled ids
	 * @param dead dead ids
	 * @param quarantine quarantined members
	 * @param completed completed ids kept by the queue's retention
	 * @param counters the counters
	 * @param lanes pending ids per lane
	 */
	public QueueStats(String queue, long pending, long active, long schedule, long dead, long quarantine,
			long completed, Map<String, Long> counters, Map<String, Long> lanes) {
		this(queue, pending, active, schedule, dead, quarantine, completed, counters, lanes, 0);
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
			case WAITING -> this.waiting;
		};
	}

}
