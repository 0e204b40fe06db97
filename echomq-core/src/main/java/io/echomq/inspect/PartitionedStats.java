package io.echomq.inspect;

import io.echomq.core.QueuePartitions;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of a logical queue: the sum over its partitions and each partition's own
 * counts. For a queue with one partition both are the queue's plain stats.
 *
 * @param total the sums, under the logical queue name
 * @param partitions each partition's stats, by partition (engine queue) name
 * @author EchoMQ
 * @since 0.2.0
 */
public record PartitionedStats(QueueStats total, Map<String, QueueStats> partitions) {

	/**
	 * Create a snapshot.
	 * @param total the sums
	 * @param partitions the partitions
	 */
	public PartitionedStats {
		partitions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(partitions));
	}

	/**
	 * Read every partition of a queue, one after the other (not one atomic snapshot).
	 * @param inspector the inspector
	 * @param partitions the queue's partitions
	 * @return the snapshot
	 */
	public static PartitionedStats read(QueueInspector inspector, QueuePartitions partitions) {
		if (!partitions.isPartitioned()) {
			QueueStats stats = inspector.stats(partitions.queue());
			return new PartitionedStats(stats, Map.of(partitions.queue(), stats));
		}
		Map<String, QueueStats> each = new LinkedHashMap<>();
		long pending = 0;
		long active = 0;
		long schedule = 0;
		long dead = 0;
		long quarantine = 0;
		long completed = 0;
		long waiting = 0;
		long batches = 0;
		Map<String, Long> counters = new LinkedHashMap<>();
		for (String name : partitions.names()) {
			QueueStats stats = inspector.stats(name);
			each.put(name, stats);
			pending += stats.pending();
			active += stats.active();
			schedule += stats.schedule();
			dead += stats.dead();
			quarantine += stats.quarantine();
			completed += stats.completed();
			waiting += stats.waiting();
			batches += stats.batches();
			stats.counters().forEach((counter, value) -> counters.merge(counter, value, Long::sum));
		}
		return new PartitionedStats(new QueueStats(partitions.queue(), pending, active, schedule, dead, quarantine,
				completed, counters, Map.of(), waiting, batches), new LinkedHashMap<>(each));
	}

	/**
	 * Return whether the queue has more than one partition.
	 * @return whether it is partitioned
	 */
	public boolean isPartitioned() {
		return this.partitions.size() > 1;
	}

}
