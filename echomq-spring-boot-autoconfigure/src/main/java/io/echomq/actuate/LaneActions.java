package io.echomq.actuate;

import io.echomq.EchoMqAdmin;
import io.echomq.QueueLimits;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.LaneControls;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;

/**
 * The endpoint's lane controls ({@code GET /echomq/queues/{queue}/lanes/{lane}} and
 * {@code POST .../lanes/{lane}/{action}}): reads what a request names and calls the
 * {@link EchoMqAdmin}.
 *
 * @author EchoMQ
 */
final class LaneActions {

	private LaneActions() {
	}

	/**
	 * Pause, resume, cap, uncap, limit or unlimit one lane cluster-wide; {@code null} for
	 * an unknown action.
	 * @throws IllegalArgumentException if the name, the lane key, the cap or a limit is
	 * invalid
	 */
	static JobDescriptors.@Nullable LaneDescriptor control(EchoMqAdmin admin, String queue, String lane, String action,
			@Nullable Long cap, @Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		Keyspace.validateQueueName(queue);
		Keyspace.validateLane(lane);
		boolean changed;
		switch (action) {
			case "pause" -> changed = admin.pauseLane(queue, lane);
			case "resume" -> changed = admin.resumeLane(queue, lane);
			case "cap" -> {
				if (cap == null) {
					throw new IllegalArgumentException("Cap of lane '" + lane + "' needs a 'cap' (at least 1)");
				}
				changed = admin.setLanePendingCap(queue, lane, cap);
			}
			case "uncap" -> changed = admin.clearLanePendingCap(queue, lane);
			case "limit" -> {
				if (maxActive == null && rate == null) {
					throw new IllegalArgumentException(
							"Limit of lane '" + lane + "' needs 'maxActive' and/or 'rateLimit' and 'period'");
				}
				changed = admin.setLaneLimits(queue, lane, maxActive, rate);
			}
			case "unlimit" -> changed = admin.clearLaneLimits(queue, lane);
			default -> {
				return null;
			}
		}
		return describe(admin, queue, lane, changed);
	}

	/**
	 * One lane's controls and pending jobs.
	 */
	static JobDescriptors.LaneDescriptor describe(EchoMqAdmin admin, String queue, String lane, boolean changed) {
		LaneControls controls = admin.laneControls(queue, lane);
		FlowLimits.RateLimit rate = controls.rate();
		return new JobDescriptors.LaneDescriptor(queue, lane, controls.paused(), controls.pendingCap(),
				controls.pending(), controls.maxActive(), (rate != null) ? rate.limit() : null,
				(rate != null) ? rate.period().toString() : null, changed);
	}

	/**
	 * What a lane request carries besides its action.
	 *
	 * @param cap the pending cap ({@code cap})
	 * @param maxActive the lane's own max-active ({@code limit})
	 * @param rateLimit the lane's own rate ({@code limit}, with {@code period})
	 * @param period the window of the rate ({@code limit})
	 */
	record Values(@Nullable Long cap, @Nullable Integer maxActive, @Nullable Integer rateLimit,
			@Nullable String period) {

		static final Values NONE = new Values(null, null, null, null);

		FlowLimits.@Nullable RateLimit rate() {
			return QueueLimits.rateLimit("rateLimit", this.rateLimit, "period",
					(this.period != null) ? DurationStyle.detectAndParse(this.period) : null);
		}

		String describe(String action) {
			if ("cap".equals(action)) {
				return " to " + this.cap;
			}
			if ("limit".equals(action)) {
				return " to maxActive " + this.maxActive + ", rateLimit " + this.rateLimit + " per " + this.period;
			}
			return "";
		}

	}

}
