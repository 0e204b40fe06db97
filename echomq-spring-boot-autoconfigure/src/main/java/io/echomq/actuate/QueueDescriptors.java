package io.echomq.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What the {@code echomq} endpoint reports about queues: their counts, partitions, lanes,
 * flow limits and listener.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class QueueDescriptors {

	private QueueDescriptors() {
	}

	static QueueDescriptor describe(PartitionedStats partitioned, boolean paused, int maxAttempts,
			@Nullable QueueListenerContainer container, @Nullable Long startedInWindow) {
		QueueStats stats = partitioned.total();
		Map<String, PartitionDescriptor> partitions = null;
		if (partitioned.isPartitioned()) {
			partitions = new LinkedHashMap<>();
			for (Map.Entry<String, QueueStats> entry : partitioned.partitions().entrySet()) {
				QueueStats each = entry.getValue();
				partitions.put(entry.getKey(), new PartitionDescriptor(each.pending(), each.active(), each.schedule(),
						each.dead(), each.quarantine(), new LinkedHashMap<>(each.counters())));
			}
		}
		Map<String, Long> lanes = new LinkedHashMap<>();
		stats.lanes()
			.entrySet()
			.stream()
			.limit(EchoMqEndpoint.MAX_LANES)
			.forEach((lane) -> lanes.put(lane.getKey(), lane.getValue()));
		FlowLimits limits = (container != null) ? container.getSettings().limits() : null;
		LimitsDescriptor limitsDescriptor = (limits != null && limits.isLimited())
				? LimitsDescriptor.of(limits, startedInWindow) : null;
		return new QueueDescriptor(stats.pending(), stats.active(), stats.schedule(), stats.dead(), stats.quarantine(),
				paused, new LinkedHashMap<>(stats.counters()), maxAttempts,
				(container != null) ? describe(container) : null, partitions, stats.lanes().size(), lanes,
				limitsDescriptor);
	}

	static ListenerDescriptor describe(QueueListenerContainer container) {
		return new ListenerDescriptor(container.getId(), container.getSettings().concurrency(), container.isRunning(),
				container.isPaused(), container.isPollerAlive(), container.inFlight(), container.getCompletedCount(),
				container.getRetriedCount(), container.getDeadCount(), container.getStaleCount());
	}

	static boolean isEmpty(QueueStats stats) {
		return stats.pending() + stats.active() + stats.schedule() + stats.dead() + stats.quarantine() == 0
				&& stats.counters().isEmpty();
	}

	/**
	 * Every known queue, by name.
	 *
	 * @param queues the queues
	 */
	public record QueuesDescriptor(Map<String, QueueDescriptor> queues) implements OperationResponseBody {

	}

	/**
	 * A queue: how many jobs each location holds, its cumulative counters, and its
	 * listener in this application.
	 *
	 * @param pending jobs waiting to be claimed
	 * @param active jobs leased to workers, here or elsewhere
	 * @param schedule jobs waiting for their run-at (delayed or backing off)
	 * @param dead dead-lettered jobs
	 * @param quarantine members no transition could move (not JOB ids, malformed rows),
	 * set aside in the queue's quarantine location; the audit tells more
	 * @param paused whether the queue is paused cluster-wide (no node claims from it)
	 * @param counters the queue's cumulative counters, across all applications
	 * @param maxAttempts the attempt budget a replayed job gets
	 * @param listener the listener here, or {@code null}
	 * @param partitions each partition of a partitioned queue (the fields above are their
	 * sums), by partition name; {@code null} for a queue with one partition
	 * @param laneCount how many fair lanes have ready work
	 * @param lanes pending jobs per lane with ready work, in ring order (the next turn
	 * first), at most {@value EchoMqEndpoint#MAX_LANES} of them
	 * @param limits the queue's cluster-wide flow limits as this application applies
	 * them, or {@code null} when it applies none (or has no listener for the queue)
	 */
	public record QueueDescriptor(long pending, long active, long schedule, long dead, long quarantine, boolean paused,
			Map<String, Long> counters, int maxAttempts, @Nullable ListenerDescriptor listener,
			@Nullable Map<String, PartitionDescriptor> partitions, long laneCount, Map<String, Long> lanes,
			@Nullable LimitsDescriptor limits) implements OperationResponseBody {

	}

	/**
	 * One partition of a partitioned queue.
	 *
	 * @param pending jobs waiting to be claimed
	 * @param active jobs leased to workers
	 * @param schedule jobs waiting for their run-at
	 * @param dead dead-lettered jobs
	 * @param quarantine members set aside in the quarantine location
	 * @param counters the partition's cumulative counters
	 */
	public record PartitionDescriptor(long pending, long active, long schedule, long dead, long quarantine,
			Map<String, Long> counters) {

	}

	/**
	 * A queue's flow limits, each {@code null} when not set.
	 *
	 * @param maxActive most jobs active at once across every node
	 * @param rateLimit most jobs started per period across every node
	 * @param ratePeriod the rate limit's period
	 * @param laneMaxActive most jobs of one lane active at once
	 * @param laneRateLimit most jobs of one lane started per period
	 * @param laneRatePeriod the lane rate limit's period
	 * @param startedInWindow the rate limit's current use: jobs started on every node in
	 * the period that ends now, on server time, from the log the claims keep
	 * ({@code null} without a rate limit); the max-active cap's current use is the
	 * queue's {@code active}
	 */
	public record LimitsDescriptor(@Nullable Integer maxActive, @Nullable Integer rateLimit,
			@Nullable Duration ratePeriod, @Nullable Integer laneMaxActive, @Nullable Integer laneRateLimit,
			@Nullable Duration laneRatePeriod, @Nullable Long startedInWindow) implements OperationResponseBody {

		static LimitsDescriptor of(FlowLimits limits, @Nullable Long startedInWindow) {
			FlowLimits.RateLimit rate = limits.rateLimit();
			FlowLimits.RateLimit laneRate = limits.laneRateLimit();
			return new LimitsDescriptor(limits.maxActive(), (rate != null) ? rate.limit() : null,
					(rate != null) ? rate.period() : null, limits.laneMaxActive(),
					(laneRate != null) ? laneRate.limit() : null, (laneRate != null) ? laneRate.period() : null,
					startedInWindow);
		}

	}

	/**
	 * A queue's limits as configured in this application and as stored at run time
	 * ({@code POST /echomq/queues/{queue}/limits}): a stored value wins on every node; a
	 * value not stored is the configured one.
	 *
	 * @param configured the limits this application's listener of the queue is configured
	 * with (all {@code null} when it has none)
	 * @param stored the limits stored at run time (each {@code null} when not stored)
	 * @param effective what the claims apply: each stored value, else the configured one
	 * @param configuredConcurrency the configured concurrency of this application's
	 * listener, or {@code null} when it has none
	 * @param storedConcurrency the concurrency stored at run time, or {@code null}
	 * @param effectiveConcurrency what each listener runs: the stored one, else its
	 * configured one
	 */
	public record RunTimeLimitsDescriptor(LimitsDescriptor configured, LimitsDescriptor stored,
			LimitsDescriptor effective, @Nullable Integer configuredConcurrency, @Nullable Integer storedConcurrency,
			@Nullable Integer effectiveConcurrency) implements OperationResponseBody {

		static RunTimeLimitsDescriptor of(QueueLimits limits) {
			return new RunTimeLimitsDescriptor(LimitsDescriptor.of(limits.configured(), null),
					LimitsDescriptor.of(limits.stored(), null), LimitsDescriptor.of(limits.effective(), null),
					limits.configuredConcurrency(), limits.storedConcurrency(), limits.effectiveConcurrency());
		}

	}

	/**
	 * A queue's listener in this application.
	 *
	 * @param id the listener id
	 * @param concurrency how many handlers run at once
	 * @param running whether it was started
	 * @param paused whether it is paused
	 * @param pollerAlive whether its claim loop runs
	 * @param inFlight jobs claimed and not yet settled
	 * @param completed jobs completed here
	 * @param retried failed attempts scheduled for a retry here
	 * @param dead jobs dead-lettered here
	 * @param stale jobs whose lease was lost while running here
	 */
	public record ListenerDescriptor(String id, int concurrency, boolean running, boolean paused, boolean pollerAlive,
			int inFlight, long completed, long retried, long dead, long stale) implements OperationResponseBody {

	}

}
