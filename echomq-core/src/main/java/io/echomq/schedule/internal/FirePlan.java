package io.echomq.schedule.internal;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

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
	 * missed and fires only under {@link MisfirePolicy#RUN_ONCE} (once, then the next
	 * fire time is the schedule's first after {@code now}, so a tick never fires a
	 * backlog) and {@link MisfirePolicy#CATCH_UP} (the most recent
	 * {@link ScheduleSpec#maxCatchUp()} missed times each fire, oldest first: the plan
	 * fires {@code due} when it is one of them, its next fire time then being the
	 * following time, and otherwise skips to the first of them).
	 * @param spec the schedule
	 * @param due the stored next fire time, not after {@code now}
	 * @param now the server time of the tick
	 * @param threshold how late a fire time may be and still count as on time
	 * @return the plan
	 */
	public static FirePlan plan(ScheduleSpec spec, Instant due, Instant now, Duration threshold) {
		return plan(spec, due, now, threshold, false);
	}

	/**
	 * Plan a tick as {@link #plan(ScheduleSpec, Instant, Instant, Duration)} does; a held
	 * time ({@link io.echomq.schedule.OverlapPolicy#HOLD_ONE}, held behind the previous
	 * occurrence) fires however late it is.
	 * @param spec the schedule
	 * @param due the stored next fire time, not after {@code now}
	 * @param now the server time of the tick
	 * @param threshold how late a fire time may be and still count as on time
	 * @param held whether the fire script held {@code due} behind the previous occurrence
	 * @return the plan
	 */
	public static FirePlan plan(ScheduleSpec spec, Instant due, Instant now, Duration threshold, boolean held) {
		Instant next = spec.nextAfter(due, now);
		boolean onTime = held || Duration.between(due, now).compareTo(threshold) <= 0;
		if (onTime || spec.misfire() == MisfirePolicy.RUN_ONCE) {
			return new FirePlan(due, next);
		}
		if (spec.misfire() == MisfirePolicy.CATCH_UP) {
			List<Instant> recent = spec.recentTimes(due, now);
			if (!recent.isEmpty() && recent.get(0).equals(due)) {
				return new FirePlan(due, spec.nextAfter(due));
			}
			if (!recent.isEmpty()) {
				return new FirePlan(null, recent.get(0));
			}
		}
		return new FirePlan(null, next);
	}

	/**
	 * Return whether the next fire time is due at {@code now} too (a catch-up goes on).
	 * @param now the time of the tick
	 * @return whether another fire is due
	 */
	boolean nextDue(Instant now) {
		return this.next != null && !this.next.isAfter(now);
	}

}
