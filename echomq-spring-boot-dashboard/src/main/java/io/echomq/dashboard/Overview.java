package io.echomq.dashboard;

import java.util.List;

/**
 * Every known queue.
 *
 * @param node the name of this node
 * @param historyKept whether the engine keeps a per-minute history
 * @param queues the queues
 * @author EchoMQ
 * @since 0.1.0
 */
public record Overview(String node, boolean historyKept, List<QueueSummary> queues) {

}
