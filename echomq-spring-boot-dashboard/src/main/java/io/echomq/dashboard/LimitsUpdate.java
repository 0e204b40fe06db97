package io.echomq.dashboard;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Run-time limits to store for a queue (see
 * {@link EchoMqDashboard#storeLimits(String, LimitsUpdate)}); each {@code null} when not
 * given, which leaves it as it is.
 *
 * @param maxActive the cap on the queue's active jobs
 * @param rateLimit how many jobs start per {@code period}
 * @param period the rate limit's period
 * @param laneMaxActive the cap on each lane's active jobs
 * @param laneRateLimit how many jobs of each lane start per {@code lanePeriod}
 * @param lanePeriod the lane rate limit's period
 * @param concurrency how many handlers each listener container runs at once
 * @author EchoMQ
 * @since 0.5.0
 */
public record LimitsUpdate(@Nullable Integer maxActive, @Nullable Integer rateLimit, @Nullable Duration period,
		@Nullable Integer laneMaxActive, @Nullable Integer laneRateLimit, @Nullable Duration lanePeriod,
		@Nullable Integer concurrency) {

}
