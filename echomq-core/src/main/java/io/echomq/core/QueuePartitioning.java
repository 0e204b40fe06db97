package io.echomq.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many partitions each queue has ({@code echomq.queues.<name>.partitions}); a queue
 * not named here has one, so its keys are exactly those of an unpartitioned queue.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class QueuePartitioning {

	private static final QueuePartitioning NONE = new QueuePartitioning(Map.of());

	private final Map<String, QueuePartitions> partitioned;

	private QueuePartitioning(Map<String, QueuePartitions> partitioned) {
		this.partitioned = partitioned;
	}

	/**
	 * Return the partitioning where every queue has one partition.
	 * @return the partitioning
	 */
	public static QueuePartitioning none() {
		return NONE;
	}

	/**
	 * Return a partitioning from partition counts by queue name.
	 * @param counts the counts; queues with a count of 1 may be left out
	 * @return the partitioning
	 * @throws IllegalArgumentException if a count is out of range
	 * @throws InvalidQueueNameException if a name is not valid
	 */
	public static QueuePartitioning of(Map<String, Integer> counts) {
		Map<String, QueuePartitions> partitioned = new LinkedHashMap<>();
		counts.forEach((queue, count) -> {
			QueuePartitions partitions = QueuePartitions.of(queue, count);
			if (partitions.isPartitioned()) {
				partitioned.put(queue, partitions);
			}
		});
		return new QueuePartitioning(Map.copyOf(partitioned));
	}

	/**
	 * Return the partitions of a queue.
	 * @param queue the logical queue name
	 * @return its partitions, a single one unless configured otherwise
	 */
	public QueuePartitions forQueue(String queue) {
		QueuePartitions partitions = this.partitioned.get(queue);
		return (partitions != null) ? partitions : QueuePartitions.of(queue, 1);
	}

	/**
	 * Return the queues that have more than one partition.
	 * @return their partitions, by queue name
	 */
	public Map<String, QueuePartitions> partitioned() {
		return this.partitioned;
	}

	/**
	 * Return the engine queue names of some logical queues: each partition of a
	 * partitioned queue, the name itself otherwise.
	 * @param queues the logical queue names
	 * @return the engine queue names
	 */
	public Set<String> engineNames(Collection<String> queues) {
		Set<String> names = new LinkedHashSet<>();
		for (String queue : queues) {
			QueuePartitions partitions = this.partitioned.get(queue);
			names.addAll((partitions != null) ? partitions.names() : List.of(queue));
		}
		return names;
	}

	/**
	 * Return the engine queue names of every partitioned queue.
	 * @return the names
	 */
	public List<String> partitionNames() {
		List<String> names = new ArrayList<>();
		this.partitioned.values().forEach((partitions) -> names.addAll(partitions.names()));
		return names;
	}

}
