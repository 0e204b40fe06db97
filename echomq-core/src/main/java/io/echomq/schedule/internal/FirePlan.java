package io.echomq.schedule.internal;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleSpec;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What one tick does with a schedule whose next fire time is due: the occurrence to
 * enqueue (if any) and the next fire time to store, computed before the tick's script
 * compares the stored fire time and moves it on.
 *
 * @param fire the fire time of the occurrence to enqueue, or {@code null} to enqueue
 * nothing (a missed time under {@link MisfirePolicy#SKIP})
 * @param next the next fire time to store, or {@code null} when the schedule never fires
 * again
 * @author EchoMQ
 * @since 0.1.0
 */
public record FirePlan(@Nullable Instant fire, @Nullable Instant next) {

	/**
	 * Plan a tick. A due time at most {@code threshold} old fires; an older one was
	 * missed and fires only under {@link MisfirePolicy#RUN_ONCE}, once. Either way the
	 * next fire time is the schedule's first time after {@code now}, so a tick never
	 * fires a backlog of occurrences.
	 * @param spec the schedule
	 * @param due the stored next fire time, not after {@code now}
	 * @param now the server time of the tick
	 * @param threshold how late a fire time may be and still count as on time
	 * @return the plan
	 */
	public static FirePlan plan(ScheduleSpec spec, Instant due, Instant now, Duration threshold) {
		Instant next = spec.nextAfter(due, now);
		boolean onTime = Duration.between(due, now).compareTo(threshold) <= 0;
		if (onTime || spec.misfire() == MisfirePolicy.RUN_ONCE) {
			return new FirePlan(due, next);
		}
		return new FirePlan(null, next);
	}

}
