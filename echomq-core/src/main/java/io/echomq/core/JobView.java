package io.echomq.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A read-only view of a job row.
 *
 * @param queue the queue
 * @param id the job id
 * @param state the row's state
 * @param attempts attempts made so far
 * @param maxAttempts the attempt number after which a failure dead-letters the job
 * @param payload the payload text
 * @param enqueuedAt when it was enqueued
 * @param lastError the last error text, or {@code null}
 * @param at the score of the id in its location (run-at, lease deadline, time of
 * death), or {@code null}
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobView(String queue, JobId id, JobState state, long attempts, long maxAttempts, String payload,
		Instant enqueuedAt, @Nullable String lastError, @Nullable Instant at) {

}
