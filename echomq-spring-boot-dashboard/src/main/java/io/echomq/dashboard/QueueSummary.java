package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A queue.
 *
 * @param name the queue name
 * @param counts how many ids each location holds, by state
 * @param counters the queue's cumulative counters, across all nodes
 * @param listener this node's listener, or {@code null}
 * @param pausedCluster whether the queue is paused cluster-wide (its pause flag is set)
 * @param flow its partitions, lanes, limits and the time its pause has left
 * @param nodes the listener of every live node, this one's included, from the queue's
 * node registry (each node beats every few seconds)
 * @author EchoMQ
 * @since 0.1.0
 */
public record QueueSummary(String name, Map<String, Long> counts, Map<String, Long> counters,
		@Nullable ListenerSummary listener, boolean pausedCluster, QueueFlow flow, List<NodeSummary> nodes) {

}
