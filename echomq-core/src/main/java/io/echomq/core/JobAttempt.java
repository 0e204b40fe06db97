package io.echomq.core;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One claimed attempt at a job: its number against the job's budget and the row fields
 * set at enqueue, as a handler sees it ({@code ReceivedJob}).
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
		return RowFields.timeout(fields());
	}

	/**
	 * Return the name of the job's unique key, set at enqueue (row field {@code unique}).
	 * @return the name, or {@code null} when the job has none
	 */
	default @Nullable String uniqueKey() {
		return fields().get(RowFields.UNIQUE);
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
