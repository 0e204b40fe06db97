package io.echomq.core.internal;

import java.util.function.Function;

import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.LaneControls;
import io.echomq.core.QueuePartitions;
import org.jspecify.annotations.Nullable;

/**
 * One lane's controls across the partitions of a queue, for {@code EchoMqAdmin}: a change
 * is written to every partition (so that jobs routed by a partition key other than the
 * lane are controlled too), a read sums the pending jobs of every partition.
 *
 * @author EchoMQ
 */
public final class LaneAdmin {

	private final QueueAdmin admin;

	private final Function<String, QueuePartitions> partitioning;

	/**
	 * Create the lane controls over a queue admin.
	 * @param admin the queue admin
	 * @param partitioning the partitions of a queue, read at each call
	 */
	public LaneAdmin(QueueAdmin admin, Function<String, QueuePartitions> partitioning) {
		this.admin = admin;
		this.partitioning = partitioning;
	}

	/**
	 * Change one lane in every partition.
	 * @param queue the queue
	 * @param lane the lane key
	 * @param control what to do
	 * @param cap the cap for {@link QueueAdmin.LaneControl#CAP}, else ignored
	 * @param maxActive the lane's own max-active for {@link QueueAdmin.LaneControl#LIMIT}
	 * @param rate the lane's own rate for {@link QueueAdmin.LaneControl#LIMIT}
	 * @return whether any partition changed
	 */
	public boolean control(String queue, String lane, QueueAdmin.LaneControl control, long cap,
			@Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		Keyspace.validateQueueName(queue);
		Keyspace.validateLane(lane);
		boolean changed = false;
		for (String partition : this.partitioning.apply(queue).names()) {
			changed |= this.admin.laneControl(partition, lane, control, cap, maxActive, rate).changed();
		}
		return changed;
	}

	/**
	 * Read one lane's controls: paused when paused in any partition, the cap and own
	 * limits of the lane's own partition, the pending jobs of every partition.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return the lane's controls
	 */
	public LaneControls read(String queue, String lane) {
		Keyspace.validateQueueName(queue);
		Keyspace.validateLane(lane);
		QueuePartitions partitions = this.partitioning.apply(queue);
		String home = partitions.isPartitioned() ? partitions.name(partitions.partitionForKey(lane))
				: partitions.name(0);
		boolean paused = false;
		LaneControls own = null;
		long pending = 0;
		for (String partition : partitions.names()) {
			LaneControls controls = this.admin.laneControl(partition, lane, QueueAdmin.LaneControl.READ, 0, null, null)
				.controls();
			paused |= controls.paused();
			pending += controls.pending();
			if (partition.equals(home)) {
				own = controls;
			}
		}
		return new LaneControls(lane, paused, (own != null) ? own.pendingCap() : null, pending,
				(own != null) ? own.maxActive() : null, (own != null) ? own.rate() : null);
	}

}
