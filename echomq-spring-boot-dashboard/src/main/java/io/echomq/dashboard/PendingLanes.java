package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

import io.echomq.inspect.JobView;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;

/**
 * The pending list's tail: the jobs waiting in fair lanes count as pending, so the
 * pending list shows them after the jobs of the pending location, lane by lane in ring
 * order (the next turn first), partition by partition, each with its lane.
 *
 * @author EchoMQ
 * @see DashboardReads
 */
final class PendingLanes {

	private final QueueInspector inspector;

	PendingLanes(QueueInspector inspector) {
		this.inspector = inspector;
	}

	/**
	 * Add the lane jobs a page of pending jobs reaches.
	 * @param engines the engine queues listed (one, or every partition), in order
	 * @param offset the page's offset over the pending jobs, lane jobs last
	 * @param limit the page size
	 * @param views the page's jobs of the pending locations, to add to
	 * @param laneOf the lane of each added job, by id, to add to
	 */
	void fill(List<String> engines, int offset, int limit, List<JobView> views, Map<String, String> laneOf) {
		List<QueueStats> stats = engines.stream().map(this.inspector::stats).toList();
		long located = 0;
		for (QueueStats each : stats) {
			located += each.pending() - inLanes(each);
		}
		long need = Math.min(limit, (long) offset + limit - located);
		long skip = Math.max(0, offset - located);
		for (int i = 0; i < engines.size() && need > 0; i++) {
			for (Map.Entry<String, Long> lane : stats.get(i).lanes().entrySet()) {
				long size = lane.getValue();
				if (skip >= size) {
					skip -= size;
					continue;
				}
				int take = (int) Math.min(need, size - skip);
				for (JobView view : this.inspector.laneJobs(engines.get(i), lane.getKey(), (int) skip, take)) {
					views.add(view);
					laneOf.put(view.id().toString(), lane.getKey());
				}
				need -= take;
				skip = 0;
				if (need <= 0) {
					break;
				}
			}
		}
	}

	private static long inLanes(QueueStats stats) {
		return stats.lanes().values().stream().mapToLong(Long::longValue).sum();
	}

}
