package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

import io.echomq.core.FlowLimits;
import org.jspecify.annotations.Nullable;

/**
 * How a queue's work flows: its partitions, its lanes with work, its configured flow
 * limits and its cluster-wide pause.
 *
 * @param partitionCount how many partitions the queue has
 * ({@code echomq.queues.<name>.partitions}), 1 for an unpartitioned queue
 * @param partitions each partition of a partitioned queue, by index; empty for a queue
 * with one partition
 * @param laneCount how many fair lanes have ready work, over every partition
 * @param lanes pending jobs of the lanes with ready work, in ring order (the next turn
 * first) partition by partition, at most {@value QueueFlows#MAX_LANES} of them
 * @param limits the queue's flow limits, or {@code null} when none is configured
 * @param pauseLeftMillis how long a timed cluster-wide pause lasts still; {@code null}
 * when the queue is not paused or paused until resumed
 * @param stored the limits stored at run time ({@code EchoMqAdmin.setLimits}), which win
 * over the configured ones on every node, or {@code null} when none is stored
 * @param storedConcurrency the listener concurrency stored at run time, or {@code null}
 * @author EchoMQ
 * @since 0.2.0
 */
public record QueueFlow(int partitionCount, List<PartitionSummary> partitions, long laneCount, List<LaneSummary> lanes,
		@Nullable Limits limits, @Nullable Long pauseLeftMillis, @Nullable Limits stored,
		@Nullable Integer storedConcurrency) {

	/**
	 * Create a flow without limits stored at run time.
	 * @param partitionCount how many partitions the queue has
	 * @param partitions each partition of a partitioned queue
	 * @param laneCount how many fair lanes have ready work
	 * @param lanes pending jobs of the lanes with ready work
	 * @param limits the queue's configured flow limits, or {@code null}
	 * @param pauseLeftMillis how long a timed cluster-wide pause lasts still, or
	 * {@code null}
	 */
	public QueueFlow(int partitionCount, List<PartitionSummary> partitions, long laneCount, List<LaneSummary> lanes,
			@Nullable Limits limits, @Nullable Long pauseLeftMillis) {
		this(partitionCount, partitions, laneCount, lanes, limits, pauseLeftMillis, null, null);
	}

	/**
	 * One partition of a partitioned queue.
	 *
	 * @param index its index, the one its jobs' ids carry
	 * @param name its engine queue name, the hash tag of its keys
	 * @param counts how many ids each location holds, by state
	 * @param counters its cumulative counters
	 * @param lanes how many lanes with ready work it holds
	 * @param node the cluster master that serves its slot ({@code host:port}), or
	 * {@code null} when not on a cluster
	 */
	public record PartitionSummary(int index, String name, Map<String, Long> counts, Map<String, Long> counters,
			long lanes, @Nullable String node) {

	}

	/**
	 * A lane with ready work.
	 *
	 * @param lane the lane key
	 * @param pending how many of its jobs wait
	 * @param partition the engine queue name of the partition it lives in
	 */
	public record LaneSummary(String lane, long pending, String partition) {

	}

	/**
	 * Flow limits, each {@code null} when not set; periods in milliseconds.
	 *
	 * @param maxActive most jobs active at once across every node
	 * @param rateLimit most jobs started per period across every node
	 * @param ratePeriodMillis the rate limit's period
	 * @param laneMaxActive most jobs of one lane active at once
	 * @param laneRateLimit most jobs of one lane started per period
	 * @param laneRatePeriodMillis the lane rate limit's period
	 * @param perPartition the share each partition of a partitioned queue enforces
	 * ({@link FlowLimits#perPartition(int)}), or {@code null} for a queue with one
	 * partition
	 */
	public record Limits(@Nullable Integer maxActive, @Nullable Integer rateLimit, @Nullable Long ratePeriodMillis,
			@Nullable Integer laneMaxActive, @Nullable Integer laneRateLimit, @Nullable Long laneRatePeriodMillis,
			@Nullable Limits perPartition) {

		static @Nullable Limits of(FlowLimits limits, int partitions) {
			if (!limits.isLimited()) {
				return null;
			}
			return of(limits, (partitions > 1) ? of(limits.perPartition(partitions), null) : null);
		}

		private static Limits of(FlowLimits limits, @Nullable Limits perPartition) {
			FlowLimits.RateLimit rate = limits.rateLimit();
			FlowLimits.RateLimit laneRate = limits.laneRateLimit();
			return new Limits(limits.maxActive(), (rate != null) ? rate.limit() : null,
					(rate != null) ? rate.period().toMillis() : null, limits.laneMaxActive(),
					(laneRate != null) ? laneRate.limit() : null,
					(laneRate != null) ? laneRate.period().toMillis() : null, perPartition);
		}

	}

}
