package io.echomq.inspect;

import java.time.Instant;

import io.echomq.core.EchoMqNode;
import io.echomq.core.JobId;
import io.echomq.core.JobState;

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
 * @param at the score of the id in its location (run-at, lease deadline, time of death),
 * or {@code null}
 * @param claimedBy the node that claimed it last ({@value EchoMqNode#CLAIMED_BY_FIELD}):
 * the lease holder while it is active; {@code null} if no claim named one
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobView(String queue, JobId id, JobState state, long attempts, long maxAttempts, String payload,
		Instant enqueuedAt, @Nullable String lastError, @Nullable Instant at, @Nullable String claimedBy) {

	/**
	 * Create a view without a claimant.
	 * @param queue the queue
	 * @param id the job id
	 * @param state the row's state
	 * @param attempts attempts made so far
	 * @param maxAttempts the attempt number after which a failure dead-letters the job
	 * @param payload the payload text
	 * @param enqueuedAt when it was enqueued
	 * @param lastError the last error text, or {@code null}
	 * @param at the score of the id in its location, or {@code null}
	 */
	public JobView(String queue, JobId id, JobState state, long attempts, long maxAttempts, String payload,
			Instant enqueuedAt, @Nullable String lastError, @Nullable Instant at) {
		this(queue, id, state, attempts, maxAttempts, payload, enqueuedAt, lastError, at, null);
	}

}
