package io.echomq.core.internal;

import io.echomq.core.JobAttempt;
import io.echomq.core.JobId;

import java.time.Instant;
import java.util.Map;

/**
 * A job leased to a worker by a claim.
 *
 * @param queue the queue
 * @param id the job id
 * @param token the fencing token: the row's {@code attempts} after this claim, which
 * counts every claim and never goes down
 * @param attempt the attempt number this claim counts as against the budget: the token
 * less the claims that no longer count (released on a graceful stop, or made before a
 * replay)
 * @param maxAttempts the attempt number after which a failure dead-letters the job
 * @param payload the payload text
 * @param enqueuedAt when the job was enqueued (server time)
 * @param readyAt when the job last became claimable (server time)
 * @param claimedAt when it was claimed (server time)
 * @param leaseDeadline when the lease expires unless extended (server time)
 * @param fields the other row fields (such as trace headers), never {@code null}
 * @author EchoMQ
 * @since 0.1.0
 */
public record ClaimedJob(String queue, JobId id, FencingToken token, long attempt, long maxAttempts, String payload,
		Instant enqueuedAt, Instant readyAt, Instant claimedAt, Instant leaseDeadline,
		Map<String, String> fields) implements JobAttempt {

}
