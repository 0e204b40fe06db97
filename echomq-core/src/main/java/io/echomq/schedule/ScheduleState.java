package io.echomq.schedule;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A schedule as read from the store, with its last and next fire time.
 *
 * @param definition the definition
 * @param lastFire the fire time of its last occurrence, or {@code null} if it never fired
 * @param nextFire its next fire time, or {@code null} if it never fires again
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleState(ScheduleDefinition definition, @Nullable Instant lastFire, @Nullable Instant nextFire) {

}
