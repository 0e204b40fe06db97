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
 * @param zone the time zone its cron expression is read in (fire times are shown in it),
 * or {@code null} for a schedule that fires at a fixed interval
 * @param paused whether an operator paused it: it fires nothing (and a deploy that
 * declares it again keeps it paused) until resumed
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleItem(String queue, String name, String spec, String origin, @Nullable Long lastFire,
		@Nullable Long nextFire, @Nullable String zone, boolean paused) {

}
