package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * How jobs are enqueued: attempts, priority, delay and extra row fields.
 *
 * @param maxAttempts how many attempts a job gets before it is dead-lettered (at least 1)
 * @param priority higher runs sooner; 0 keeps mint order
 * @param delay how long after enqueue (server time) the job becomes claimable
 * @param runAt an absolute run-at that wins over {@code delay}, or {@code null}
 * @param fields extra row fields (such as trace headers); names must not clash with the
 * engine's own
 * @author EchoMQ
 * @since 0.1.0
 */
public record EnqueueSpec(int maxAttempts, int priority, Duration delay, @Nullable Instant runAt,
		Map<String, String> fields) {

	/** Row field of a job's own handler timeout, in milliseconds. */
	public static final String TIMEOUT_FIELD = "timeout";

	/** Row fields the engine owns. */
	public static final java.util.Set<String> RESERVED_FIELDS = java.util.Set.of("state", "attempts", "max_attempts",
			"payload", "enqueued_at", "ready_at", "run_at", "priority", "last_error", "dead_at", "released",
			TIMEOUT_FIELD, "quarantined_from", "quarantine_reason");

	/**
	 * Validate the spec.
	 * @param maxAttempts how many attempts a job gets
	 * @param priority the priority
	 * @param delay the delay
	 * @param runAt the absolute run-at
	 * @param fields extra row fields
	 */
	public EnqueueSpec {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
		}
		if (delay == null || delay.isNegative()) {
			throw new IllegalArgumentException("delay must not be negative, was " + delay);
		}
		fields = Map.copyOf(fields);
		for (String field : fields.keySet()) {
			if (RESERVED_FIELDS.contains(field)) {
				throw new IllegalArgumentException("Row field '" + field + "' is reserved by EchoMQ");
			}
		}
	}

	/**
	 * Return the default spec: 3 attempts, priority 0, no delay.
	 * @return the default spec
	 */
	public static EnqueueSpec defaults() {
		return new EnqueueSpec(3, 0, Duration.ZERO, null, Map.of());
	}

	/**
	 * Return a copy with another number of attempts.
	 * @param maxAttempts the attempts
	 * @return the new spec
	 */
	public EnqueueSpec withMaxAttempts(int maxAttempts) {
		return new EnqueueSpec(maxAttempts, this.priority, this.delay, this.runAt, this.fields);
	}

	/**
	 * Return a copy with another priority.
	 * @param priority the priority
	 * @return the new spec
	 */
	public EnqueueSpec withPriority(int priority) {
		return new EnqueueSpec(this.maxAttempts, priority, this.delay, this.runAt, this.fields);
	}

	/**
	 * Return a copy with another delay.
	 * @param delay the delay
	 * @return the new spec
	 */
	public EnqueueSpec withDelay(Duration delay) {
		return new EnqueueSpec(this.maxAttempts, this.priority, delay, this.runAt, this.fields);
	}

	/**
	 * Return a copy with an absolute run-at.
	 * @param runAt the run-at
	 * @return the new spec
	 */
	public EnqueueSpec withRunAt(@Nullable Instant runAt) {
		return new EnqueueSpec(this.maxAttempts, this.priority, this.delay, runAt, this.fields);
	}

	/**
	 * Return a copy with extra row fields.
	 * @param fields the fields
	 * @return the new spec
	 */
	public EnqueueSpec withFields(Map<String, String> fields) {
		return new EnqueueSpec(this.maxAttempts, this.priority, this.delay, this.runAt, fields);
	}

}
