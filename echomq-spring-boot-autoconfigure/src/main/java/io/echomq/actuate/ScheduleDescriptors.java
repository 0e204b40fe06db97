package io.echomq.actuate;

import java.time.Instant;
import java.util.List;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What the {@code echomq} endpoint reports about recurring schedules.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class ScheduleDescriptors {

	private ScheduleDescriptors() {
	}

	static SchedulesDescriptor describe(List<ScheduleState> states) {
		return new SchedulesDescriptor(states.stream().map(ScheduleDescriptors::describe).toList());
	}

	static ScheduleDescriptor describe(ScheduleState state) {
		ScheduleDefinition definition = state.definition();
		ScheduleSpec spec = definition.spec();
		return new ScheduleDescriptor(definition.queue(), definition.name(), spec.cron(),
				(spec.every() != null) ? spec.every().toString() : null, spec.zone().getId(), spec.misfire().name(),
				definition.origin().name(), state.lastFire(), state.nextFire(), state.paused(), spec.overlap().name(),
				(spec.misfire() == MisfirePolicy.CATCH_UP) ? spec.maxCatchUp() : null, spec.start(), spec.end());
	}

	static TriggerDescriptor describe(ScheduleFire fire) {
		return new TriggerDescriptor(fire.queue(), fire.name(), fire.id().toString(), fire.fireTime());
	}

	/**
	 * Every schedule in the store of the queues this application ticks.
	 *
	 * @param schedules the schedules, by queue and name
	 */
	public record SchedulesDescriptor(List<ScheduleDescriptor> schedules) implements OperationResponseBody {

	}

	/**
	 * One schedule. Its payload is not shown.
	 *
	 * @param queue the queue its occurrences go to
	 * @param name its name
	 * @param cron its cron expression, or {@code null}
	 * @param every its interval, or {@code null}
	 * @param zone the zone of the cron expression
	 * @param misfire its misfire policy
	 * @param origin how it was declared: API, ANNOTATION or PROPERTIES
	 * @param lastFire the fire time of its last occurrence, or {@code null}
	 * @param nextFire its next fire time, or {@code null} if it never fires again or is
	 * paused
	 * @param paused whether an operator paused it (a declared schedule stays paused
	 * across restarts and deploys until resumed)
	 * @param overlap its overlap policy
	 * @param catchUp how many missed times a catch-up fires, or {@code null} unless its
	 * misfire policy is CATCH_UP
	 * @param start the first instant it may fire at, or {@code null}
	 * @param end the last instant it may fire at, or {@code null}
	 */
	public record ScheduleDescriptor(String queue, String name, @Nullable String cron, @Nullable String every,
			String zone, String misfire, String origin, @Nullable Instant lastFire, @Nullable Instant nextFire,
			boolean paused, String overlap, @Nullable Integer catchUp, @Nullable Instant start,
			@Nullable Instant end) implements OperationResponseBody {

		/**
		 * Create a descriptor of a schedule that is not paused, overlaps, and has no
		 * start or end.
		 * @param queue the queue
		 * @param name the name
		 * @param cron the cron expression, or {@code null}
		 * @param every the interval, or {@code null}
		 * @param zone the zone
		 * @param misfire the misfire policy
		 * @param origin the origin
		 * @param lastFire the last fire time, or {@code null}
		 * @param nextFire the next fire time, or {@code null}
		 */
		public ScheduleDescriptor(String queue, String name, @Nullable String cron, @Nullable String every, String zone,
				String misfire, String origin, @Nullable Instant lastFire, @Nullable Instant nextFire) {
			this(queue, name, cron, every, zone, misfire, origin, lastFire, nextFire, false, "ALLOW", null, null, null);
		}

	}

	/**
	 * A schedule deleted.
	 *
	 * @param queue the queue
	 * @param name the schedule name
	 */
	public record DeletedScheduleDescriptor(String queue, String name) implements OperationResponseBody {

	}

	/**
	 * An occurrence enqueued by a trigger.
	 *
	 * @param queue the queue
	 * @param name the schedule name
	 * @param id the job id
	 * @param time the server time of the trigger
	 */
	public record TriggerDescriptor(String queue, String name, String id,
			Instant time) implements OperationResponseBody {

	}

}
