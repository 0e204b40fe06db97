package io.echomq.dashboard;

import org.jspecify.annotations.Nullable;

/**
 * A recurring schedule.
 *
 * @param queue the queue its occurrences go to
 * @param name its name
 * @param spec when it fires, for people
 * @param origin where it was declared: api, annotation or properties
 * @param lastFire the fire time of its last occurrence, epoch ms, or {@code null}
 * @param nextFire its next fire time, epoch ms, or {@code null} if it never fires again
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleItem(String queue, String name, String spec, String origin, @Nullable Long lastFire,
		@Nullable Long nextFire) {

}
