package io.echomq.dashboard;

import io.echomq.EchoMqAdmin;
import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;

/**
 * The run-time limits the dashboard stores and resets, through the {@link EchoMqAdmin} as
 * the actuator endpoint's {@code POST /echomq/queues/{queue}/limits} does, with the same
 * checks: every value is checked before anything is written.
 *
 * @author EchoMQ
 * @see EchoMqDashboard
 */
final class DashboardLimits {

	private final EchoMqAdmin admin;

	DashboardLimits(EchoMqAdmin admin) {
		this.admin = admin;
	}

	Outcome store(String queue, LimitsUpdate request) {
		FlowLimits limits = new FlowLimits(request.maxActive(),
				QueueLimits.rateLimit("rate limit", request.rateLimit(), "period", request.period()),
				request.laneMaxActive(),
				QueueLimits.rateLimit("lane rate limit", request.laneRateLimit(), "lane period", request.lanePeriod()));
		Integer concurrency = request.concurrency();
		if (!limits.isLimited() && concurrency == null) {
			throw new IllegalArgumentException("No limit given: set max active, rate limit and period, lane max active,"
					+ " lane rate limit and lane period, or concurrency; nothing was written");
		}
		if (concurrency != null && concurrency <= 0) {
			throw new IllegalArgumentException(
					"concurrency must be positive, was " + concurrency + "; nothing was written");
		}
		if (limits.isLimited()) {
			this.admin.setLimits(queue, limits);
		}
		if (concurrency != null) {
			this.admin.setConcurrency(queue, concurrency);
		}
		return Outcome.done(
				"Limits of '" + queue + "' stored on every node; they win over the configured ones until" + " reset",
				0);
	}

	Outcome reset(String queue, String which) {
		QueueLimits.Setting[] settings = QueueLimits.Setting.parse(which);
		this.admin.resetLimits(queue, settings);
		return Outcome.done("Stored " + ((settings.length == 0) ? "limits" : which.trim()) + " of '" + queue
				+ "' reset: the configured values apply again", 0);
	}

}
