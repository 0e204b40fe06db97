package io.echomq.dashboard;

import java.time.Duration;
import java.util.Locale;

import io.echomq.EchoMqAdmin;
import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import org.jspecify.annotations.Nullable;

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
				rate("rate limit", request.rateLimit(), "period", request.period()), request.laneMaxActive(),
				rate("lane rate limit", request.laneRateLimit(), "lane period", request.lanePeriod()));
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
		QueueLimits.Setting[] settings = settings(which);
		this.admin.resetLimits(queue, settings);
		return Outcome.done("Stored " + ((settings.length == 0) ? "limits" : which.trim()) + " of '" + queue
				+ "' reset: the configured values apply again", 0);
	}

	private static FlowLimits.@Nullable RateLimit rate(String limitName, @Nullable Integer limit, String periodName,
			@Nullable Duration period) {
		if (limit == null && period == null) {
			return null;
		}
		if (limit == null || period == null) {
			throw new IllegalArgumentException(limitName + " and " + periodName + " go together; got only "
					+ ((limit != null) ? limitName : periodName) + "; nothing was written");
		}
		return new FlowLimits.RateLimit(limit, period);
	}

	private static QueueLimits.Setting[] settings(String which) {
		if ("all".equals(which.trim())) {
			return new QueueLimits.Setting[0];
		}
		String[] names = which.split(",");
		QueueLimits.Setting[] settings = new QueueLimits.Setting[names.length];
		for (int i = 0; i < names.length; i++) {
			String name = names[i].trim();
			try {
				settings[i] = QueueLimits.Setting.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("No such limit '" + name + "' to reset; try 'all', 'max-active',"
						+ " 'rate-limit', 'lane-max-active', 'lane-rate-limit' or 'concurrency'");
			}
		}
		return settings;
	}

}
