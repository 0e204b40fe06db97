package io.echomq.core;

import java.time.Duration;
import java.util.Map;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Flows;
import org.jspecify.annotations.Nullable;

/**
 * One claimed attempt at a job: its number against the job's budget and the row fields
 * set at enqueue. What {@link io.echomq.core.internal.ClaimedJob} and the listener's
 * {@code ReceivedJob} share.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface JobAttempt {

	/**
	 * Return the attempt number this claim counts as against the job's budget, starting
	 * at 1.
	 * @return the attempt number
	 */
	long attempt();

	/**
	 * Return the attempt number after which a failure dead-letters the job (the row's
	 * budget).
	 * @return the budget
	 */
	long maxAttempts();

	/**
	 * Return the other row fields (such as trace headers).
	 * @return the fields, never {@code null}
	 */
	Map<String, String> fields();

	/**
	 * Return the job's own handler timeout, set at enqueue (row field {@code timeout}, in
	 * milliseconds).
	 * @return the timeout, or {@code null} when the job sets none
	 */
	default @Nullable Duration timeout() {
		return EnqueueSpec.timeoutOf(fields());
	}

	/**
	 * Return the name of the job's unique key, set at enqueue (row field {@code unique}).
	 * @return the name, or {@code null} when the job has none
	 */
	default @Nullable String uniqueKey() {
		return fields().get(EnqueueSpec.UNIQUE_FIELD);
	}

	/**
	 * Return what finishing this job as a child of a flow (or a job of a batch) needs
	 * declared, read from the row fields set at enqueue as the scripts read them
	 * (includes/flow.lua): the parent's id when the parent is in the job's own queue (row
	 * field {@code flow_local}), the empty string when it is elsewhere (reached through
	 * the queue's outbox), or {@code null} when the job has no parent.
	 * @return the parent id, {@code ""} or {@code null}
	 */
	default @Nullable String flowParent() {
		String parent = fields().get(Flows.PARENT_ID_FIELD);
		if (parent == null || !fields().containsKey(Flows.PARENT_QUEUE_FIELD)) {
			return null;
		}
		return "1".equals(fields().get(Flows.LOCAL_FIELD)) ? parent : "";
	}

	/**
	 * Return whether a failure of this attempt would dead-letter the job (by the row's
	 * budget).
	 * @return {@code true} if this is the last attempt
	 */
	default boolean isLastAttempt() {
		return attempt() >= maxAttempts();
	}

}
