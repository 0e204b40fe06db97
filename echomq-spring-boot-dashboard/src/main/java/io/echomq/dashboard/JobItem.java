package io.echomq.dashboard;

import org.jspecify.annotations.Nullable;

/**
 * A job in a page.
 *
 * @param id the job id
 * @param state its state
 * @param attempts claims so far (the fencing token)
 * @param maxAttempts its attempt budget
 * @param enqueuedAt when it was enqueued, epoch ms
 * @param at its score: run-at, lease deadline or time of death, epoch ms
 * @param lastError the last error, or {@code null}
 * @param payload a preview of the payload, sanitized unless shown
 * @param claimedBy the node that claimed it last: while it is active, the node whose
 * listener holds its lease; {@code null} if no claim named one
 * @author EchoMQ
 * @since 0.1.0
 */
public record JobItem(String id, String state, long attempts, long maxAttempts, long enqueuedAt, @Nullable Long at,
		@Nullable String lastError, @Nullable Object payload, @Nullable String claimedBy) {

}
