package io.echomq.dashboard;

import java.util.List;
import java.util.Map;

/**
 * Per-minute history.
 *
 * @param kept whether the engine keeps one; when not, pages sample counters
 * @param queues the minutes of each queue
 * @author EchoMQ
 * @since 0.1.0
 */
public record History(boolean kept, Map<String, List<QueueHistory.Minute>> queues) {

}
