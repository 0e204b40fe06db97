package io.echomq.events;

/**
 * Events a listener never heard: the queue's stream was trimmed to its bound
 * ({@code echomq.queues.*.events.max-length}) past them before the listener read them.
 *
 * @param queue the queue
 * @param listenerId the listener (its consumer group)
 * @param after the sequence number of the last event the listener heard before the gap
 * @param resumedAt the sequence number of the first event it heard after it
 * @param missed how many events it missed: {@code resumedAt - after - 1}
 * @author EchoMQ
 * @since 0.2.0
 */
public record JobEventGap(String queue, String listenerId, long after, long resumedAt, long missed) {

}
