package io.echomq.actuate;

import java.time.Instant;
import java.util.List;

import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
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
		return new ScheduleDescriptor(definition.queue(), definition.name(), definition.spec().cron(),
				(definition.spec().every() != null) ? definition.spec().every().toString() : null,
				definition.spec().zone().getId(), definition.spec().misfire().name(), definition.origin().name(),
				state.lastFire(), state.nextFire());
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
	 * @param nextFire its next fire time, or {@code null} if it never fires again
	 */
	public record ScheduleDescriptor(String queue, String name, @Nullable String cron, @Nullable String every,
			String zone, String misfire, String origin, @Nullable Instant lastFire, @Nullable Instant nextFire) {

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
