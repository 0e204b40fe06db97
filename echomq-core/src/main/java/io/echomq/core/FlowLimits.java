package io.echomq.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The cluster-wide flow limits of a queue, enforced by the claim script on server time:
 * at most {@code maxActive} jobs active across every node, and at most
 * {@code rateLimit.limit()} jobs started in any window of {@code rateLimit.period()}.
 *
 * @param maxActive the most jobs active at once across every node, or {@code null} for no
 * cap
 * @param rateLimit the most jobs started per period, or {@code null} for no limit
 * @param laneMaxActive the most jobs of one lane active at once across every node
 * ({@code 1} makes each lane key a mutex), or {@code null} for no cap
 * @param laneRateLimit the most jobs of one lane started per period, or {@code null} for
 * no limit
 * @author EchoMQ
 * @since 0.2.0
 */
public record FlowLimits(@Nullable Integer maxActive, @Nullable RateLimit rateLimit, @Nullable Integer laneMaxActive,
		@Nullable RateLimit laneRateLimit) {

	private static final FlowLimits NONE = new FlowLimits(null, null, null, null);

	/**
	 * Validate the limits.
	 * @param maxActive the cap
	 * @param rateLimit the rate limit
	 * @param laneMaxActive the per-lane cap
	 * @param laneRateLimit the per-lane rate limit
	 * @throws IllegalArgumentException if a cap is not positive
	 */
	public FlowLimits {
		if (maxActive != null && maxActive <= 0) {
			throw new IllegalArgumentException("max-active must be positive, was " + maxActive);
		}
		if (laneMaxActive != null && laneMaxActive <= 0) {
			throw new IllegalArgumentException("lanes.max-active must be positive, was " + laneMaxActive);
		}
	}

	/**
	 * Create queue-wide limits without per-lane ones.
	 * @param maxActive the cap, or {@code null}
	 * @param rateLimit the rate limit, or {@code null}
	 */
	public FlowLimits(@Nullable Integer maxActive, @Nullable RateLimit rateLimit) {
		this(maxActive, rateLimit, null, null);
	}

	/**
	 * Return the absence of limits.
	 * @return no cap and no rate limit
	 */
	public static FlowLimits none() {
		return NONE;
	}

	/**
	 * Return the share of these limits one partition of a queue with {@code partitions}
	 * partitions enforces: each bound divided by the partition count, rounded down but at
	 * least 1, so that the partitions together never exceed the queue's limits unless a
	 * bound is smaller than the partition count (then each partition allows 1). Lane
	 * limits are kept: a lane lives in one partition.
	 * @param partitions the partition count, at least 1
	 * @return the per-partition limits
	 */
	public FlowLimits perPartition(int partitions) {
		if (partitions <= 1 || !isLimited()) {
			return this;
		}
		Integer cap = (this.maxActive != null) ? Math.max(1, this.maxActive / partitions) : null;
		RateLimit rate = (this.rateLimit != null)
				? new RateLimit(Math.max(1, this.rateLimit.limit() / partitions), this.rateLimit.period()) : null;
		return new FlowLimits(cap, rate, this.laneMaxActive, this.laneRateLimit);
	}

	/**
	 * Return whether any limit applies.
	 * @return {@code true} if there is a cap or a rate limit
	 */
	public boolean isLimited() {
		return this.maxActive != null || this.rateLimit != null || this.laneMaxActive != null
				|| this.laneRateLimit != null;
	}

	/**
	 * At most {@code limit} starts in any window of {@code period} (a sliding-window
	 * log).
	 *
	 * @param limit the most starts per period
	 * @param period the window, at least 1 ms
	 */
	public record RateLimit(int limit, Duration period) {

		/**
		 * Validate the rate limit.
		 * @param limit the most starts per period
		 * @param period the window
		 * @throws IllegalArgumentException if the limit is not positive or the period is
		 * shorter than 1 ms
		 */
		public RateLimit {
			if (limit <= 0) {
				throw new IllegalArgumentException("rate-limit.limit must be positive, was " + limit);
			}
			if (period == null || period.toMillis() <= 0) {
				throw new IllegalArgumentException("rate-limit.period must be at least 1ms, was " + period);
			}
		}

	}

}
