package io.echomq.actuate;

import io.echomq.EchoMqAdmin;
import io.echomq.core.Keyspace;
import io.echomq.core.LaneControls;
import org.jspecify.annotations.Nullable;

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
	 * Pause, resume, cap or uncap one lane cluster-wide; {@code null} for an unknown
	 * action.
	 * @throws IllegalArgumentException if the name, the lane key or the cap is invalid
	 */
	static JobDescriptors.@Nullable LaneDescriptor control(EchoMqAdmin admin, String queue, String lane, String action,
			@Nullable Long cap) {
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
		return new JobDescriptors.LaneDescriptor(queue, lane, controls.paused(), controls.pendingCap(),
				controls.pending(), changed);
	}

}
