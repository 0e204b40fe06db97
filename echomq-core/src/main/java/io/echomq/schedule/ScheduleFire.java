package io.echomq.schedule;

import java.time.Instant;

import io.echomq.core.JobId;

/**
 * One occurrence a node enqueued: on its fire time by the tick, or at once by a trigger.
 *
 * @param queue the queue
 * @param name the schedule name
 * @param fireTime the fire time the occurrence stands for (for a trigger, the server time
 * of the trigger)
 * @param id the occurrence's job id
 * @param triggered whether it was triggered by hand rather than by its fire time
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleFire(String queue, String name, Instant fireTime, JobId id, boolean triggered) {

}
