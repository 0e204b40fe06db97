package io.echomq.core.internal;

import java.time.Instant;
import java.util.Map;

import io.echomq.core.JobAttempt;
import io.echomq.core.JobId;
import io.echomq.core.RowFields;
import org.jspecify.annotations.Nullable;

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

	/**
	 * Return what finishing this job as a child of a flow (or a job of a batch) needs
	 * declared, read from the row fields set at enqueue as the scripts read them
	 * (includes/flow.lua): the parent's id when the parent is in the job's own queue (row
	 * field {@code flow_local}), the empty string when it is elsewhere (reached through
	 * the queue's outbox), or {@code null} when the job has no parent.
	 * @return the parent id, {@code ""} or {@code null}
	 */
	public @Nullable String flowParent() {
		return flowParentOf(this.fields);
	}

	/**
	 * Return the keys finishing this job needs declared beside the queue's own, as the
	 * claimed row names them: its unique key, and its parent of a flow when the outcome
	 * may settle it ({@code settlesParent}). An outcome sent with them is one script
	 * call, where a caller that does not know them is asked for each in turn.
	 * @param settlesParent whether the outcome may finish the job for its parent (a
	 * completion, a dead-letter, a last attempt's retry)
	 * @return the keys
	 */
	public JobKeys keys(boolean settlesParent) {
		return new JobKeys(uniqueKey(), settlesParent ? flowParent() : null);
	}

	private static @Nullable String flowParentOf(Map<String, String> fields) {
		Map<String, String> f = fields;
		String parent = f.get(RowFields.FLOW_PARENT_ID);
		if (parent == null || !f.containsKey(RowFields.FLOW_PARENT_QUEUE)) {
			return null;
		}
		return "1".equals(f.get(RowFields.FLOW_LOCAL)) ? parent : "";
	}

}
