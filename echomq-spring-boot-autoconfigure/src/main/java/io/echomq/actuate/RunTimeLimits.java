package io.echomq.actuate;

import java.time.Duration;

import io.echomq.EchoMqAdmin;
import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import org.jspecify.annotations.Nullable;

/**
 * The endpoint's run-time limits ({@code GET} and {@code POST
 * /echomq/queues/{queue}/limits}): reads what a request names and calls the
 * {@link EchoMqAdmin}.
 *
 * @author EchoMQ
 */
final class RunTimeLimits {

	private RunTimeLimits() {
	}

	/**
	 * A queue's limits as configured here and as stored at run time, and which apply.
	 */
	static QueueDescriptors.RunTimeLimitsDescriptor read(EchoMqAdmin admin, String queue) {
		return QueueDescriptors.RunTimeLimitsDescriptor.of(admin.limits(queue));
	}

	/**
	 * Store the values given, cluster-wide (see {@link EchoMqAdmin#setLimits} and
	 * {@link EchoMqAdmin#setConcurrency}); values not given stay as they are.
	 * @throws IllegalArgumentException if a value is out of range, a rate comes without
	 * its period, or nothing is given (nothing was written)
	 */
	static QueueDescriptors.RunTimeLimitsDescriptor store(EchoMqAdmin admin, String queue, @Nullable Integer maxActive,
			@Nullable Integer rateLimit, @Nullable Duration period, @Nullable Integer laneMaxActive,
			@Nullable Integer laneRateLimit, @Nullable Duration lanePeriod, @Nullable Integer concurrency) {
		Keyspace.validateQueueName(queue);
		FlowLimits limits = new FlowLimits(maxActive, QueueLimits.rateLimit("rateLimit", rateLimit, "period", period),
				laneMaxActive, QueueLimits.rateLimit("laneRateLimit", laneRateLimit, "lanePeriod", lanePeriod));
		if (!limits.isLimited() && concurrency == null) {
			throw new IllegalArgumentException("No limit given: set maxActive, rateLimit and period, laneMaxActive,"
					+ " laneRateLimit and lanePeriod, or concurrency; or reset");
		}
		if (concurrency != null && concurrency <= 0) {
			throw new IllegalArgumentException("concurrency must be positive, was " + concurrency);
		}
		QueueLimits after = limits.isLimited() ? admin.setLimits(queue, limits) : admin.limits(queue);
		if (concurrency != null) {
			after = admin.setConcurrency(queue, concurrency);
		}
		return QueueDescriptors.RunTimeLimitsDescriptor.of(after);
	}

	/**
	 * Reset stored limits on every node, back to the configured ones: {@code all}, or a
	 * comma-separated list of {@code max-active}, {@code rate-limit},
	 * {@code lane-max-active}, {@code lane-rate-limit}, {@code concurrency}.
	 * @throws IllegalArgumentException if a name is unknown (nothing was written)
	 */
	static QueueDescriptors.RunTimeLimitsDescriptor reset(EchoMqAdmin admin, String queue, String which) {
		Keyspace.validateQueueName(queue);
		return QueueDescriptors.RunTimeLimitsDescriptor.of(admin.resetLimits(queue, QueueLimits.Setting.parse(which)));
	}

}
