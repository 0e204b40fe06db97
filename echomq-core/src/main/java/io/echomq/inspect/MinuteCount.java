package io.echomq.inspect;

import java.time.Instant;

import io.echomq.core.internal.KeyType;

/**
 * The work of one queue in one minute, from the per-minute series the transition scripts
 * keep in {@link KeyType#MINUTES}.
 *
 * @param start the start of the minute (server time)
 * @param completed jobs completed in that minute
 * @param failed failed attempts in that minute, retried or dead-lettered (snoozes are not
 * failures)
 * @author EchoMQ
 * @since 0.1.0
 */
public record MinuteCount(Instant start, long completed, long failed) {

}
