package io.echomq.core;

import org.jspecify.annotations.Nullable;

/**
 * An operator's controls of one lane of a queue, as read now, with the size they apply
 * to.
 *
 * @param lane the lane key
 * @param paused whether the lane is paused: its jobs wait in its pending set, unclaimed,
 * until it is resumed
 * @param pendingCap the most jobs an enqueue may leave in the lane's pending set, or
 * {@code null} for none
 * @param pending how many jobs the lane's pending set holds (summed over the partitions
 * of a partitioned queue)
 * @param maxActive the lane's own max-active, which wins over the queue's lane
 * max-active, or {@code null} for none
 * @param rate the lane's own rate limit, which wins over the queue's lane rate limit, or
 * {@code null} for none
 * @author EchoMQ
 * @since 0.5.0
 */
public record LaneControls(String lane, boolean paused, @Nullable Long pendingCap, long pending,
		@Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {

}
