package io.echomq.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.dashboard.QueueFlow.LaneSummary;
import io.echomq.dashboard.QueueFlow.PartitionSummary;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link QueueFlow} from a queue's partitioned stats, its limits and its pause:
 * no reads but the cluster master of each partition, from the client's cached topology.
 *
 * @author EchoMQ
 */
final class QueueFlows {

	/** Most lanes a queue lists. */
	static final int MAX_LANES = 100;

	private final QueueInspector inspector;

	QueueFlows(QueueInspector inspector) {
		this.inspector = inspector;
	}

	QueueFlow read(QueuePartitions partitions, PartitionedStats stats, FlowLimits limits, @Nullable Duration pauseLeft,
			QueueLimits runtime) {
		List<PartitionSummary> each = new ArrayList<>();
		List<LaneSummary> lanes = new ArrayList<>();
		long laneCount = 0;
		for (Map.Entry<String, QueueStats> entry : stats.partitions().entrySet()) {
			String name = entry.getKey();
			QueueStats partition = entry.getValue();
			laneCount += partition.lanes().size();
			for (Map.Entry<String, Long> lane : partition.lanes().entrySet()) {
				if (lanes.size() < MAX_LANES) {
					lanes.add(new LaneSummary(lane.getKey(), lane.getValue(), name));
				}
			}
			if (stats.isPartitioned()) {
				each.add(new PartitionSummary(QueuePartitions.indexOf(name), name, counts(partition),
						new LinkedHashMap<>(partition.counters()), partition.lanes().size(), node(name)));
			}
		}
		return new QueueFlow(partitions.count(), each, laneCount, lanes,
				QueueFlow.Limits.of(limits, partitions.count()),
				(pauseLeft != null && !pauseLeft.isZero()) ? pauseLeft.toMillis() : null,
				QueueFlow.Limits.of(runtime.stored(), partitions.count()), runtime.storedConcurrency());
	}

	static Map<String, Long> counts(QueueStats stats) {
		Map<String, Long> counts = new LinkedHashMap<>();
		for (JobState state : JobState.values()) {
			counts.put(state.value(), stats.count(state));
		}
		return counts;
	}

	private @Nullable String node(String partition) {
		return this.inspector.server(partition);
	}

}
