package io.echomq.schedule;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A schedule as read from the store, with its last and next fire time and whether it is
 * paused.
 *
 * @param definition the definition
 * @param lastFire the fire time of its last occurrence, or {@code null} if it never fired
 * @param nextFire its next fire time, or {@code null} if it never fires again or is
 * paused
 * @param paused whether it is paused (cluster-wide, until resumed: a paused declared
 * schedule stays paused when the application declares it again at start-up)
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleState(ScheduleDefinition definition, @Nullable Instant lastFire, @Nullable Instant nextFire,
		boolean paused) {

	/**
	 * Create the state of a schedule that is not paused.
	 * @param definition the definition
	 * @param lastFire the fire time of its last occurrence, or {@code null}
	 * @param nextFire its next fire time, or {@code null}
	 */
	public ScheduleState(ScheduleDefinition definition, @Nullable Instant lastFire, @Nullable Instant nextFire) {
		this(definition, lastFire, nextFire, false);
	}

}
