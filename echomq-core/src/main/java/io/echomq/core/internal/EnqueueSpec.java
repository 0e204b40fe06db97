package io.echomq.core.internal;

import io.echomq.core.EchoMqNode;
import io.echomq.core.Keyspace;
import io.echomq.core.UniqueKey;
import io.echomq.core.UniqueMode;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * How jobs are enqueued: attempts, priority, delay or run-at, a handler timeout and extra
 * row fields. Immutable; each {@code with*} method returns a validated copy.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class EnqueueSpec {

	/** Row field of a job's own handler timeout, in milliseconds. */
	public static final String TIMEOUT_FIELD = "timeout";

	/** Row field naming the job's unique key (see {@link UniqueKey}). */
	public static final String UNIQUE_FIELD = "unique";

	/** Row field of the unique key's mode ({@link UniqueMode#value()}). */
	public static final String UNIQUE_MODE_FIELD = "unique_mode";

	/** Row field of a throttle key's window, in milliseconds. */
	public static final String UNIQUE_TTL_FIELD = "unique_ttl";

	/**
	 * The latest run-at a job may have: the end of year 9999 (UTC). Every run-at up to it
	 * is exact in milliseconds in a server's scores and script numbers.
	 */
	public static final Instant LATEST_RUN_AT = Instant.parse("9999-12-31T23:59:59.999Z");

	/**
	 * The longest delay a job may have, as long as the time from the epoch to
	 * {@link #LATEST_RUN_AT}.
	 */
	public static final Duration MAX_DELAY = Duration.ofMillis(LATEST_RUN_AT.toEpochMilli());

	/** Row fields the engine owns. */
	public static final java.util.Set<String> RESERVED_FIELDS = java.util.Set.of("state", "attempts", "max_attempts",
			"payload", "enqueued_at", "ready_at", "run_at", "priority", "last_error", "dead_at", "completed_at",
			"released", TIMEOUT_FIELD, "quarantined_from", "quarantine_reason", UNIQUE_FIELD, UNIQUE_MODE_FIELD,
			UNIQUE_TTL_FIELD, "cancel_requested_at", "lane", EchoMqNode.CLAIMED_BY_FIELD, "result", "progress",
			"progress_data", Flows.PARENT_QUEUE_FIELD, Flows.PARENT_ID_FIELD, Flows.POLICY_FIELD, Flows.LOCAL_FIELD,
			io.echomq.core.FlowChild.CHILDREN_FIELD, "children_left");

	private static final EnqueueSpec DEFAULTS = new EnqueueSpec(new Values());

	private final Values values;

	private EnqueueSpec(Values values) {
		this.values = values;
	}

	/**
	 * Return the default spec: 3 attempts, priority 0, no delay, no timeout, no extra
	 * fields.
	 * @return the default spec
	 */
	public static EnqueueSpec defaults() {
		return DEFAULTS;
	}

	/**
	 * Return the handler timeout a job row's fields carry (field {@value #TIMEOUT_FIELD},
	 * in milliseconds, as {@link #withTimeout(Duration)} writes it).
	 * @param fields the row fields
	 * @return the timeout, or {@code null} when the row sets none or an unreadable one
	 */
	public static @Nullable Duration timeoutOf(Map<String, String> fields) {
		String millis = fields.get(TIMEOUT_FIELD);
		if (millis == null) {
			return null;
		}
		try {
			long value = Long.parseLong(millis);
			return (value > 0) ? Duration.ofMillis(value) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Check a delay: not negative and at most {@link #MAX_DELAY}.
	 * @param delay the delay
	 * @throws IllegalArgumentException naming the delay when it is out of range
	 */
	public static void checkDelay(@Nullable Duration delay) {
		if (delay == null || delay.isNegative()) {
			throw new IllegalArgumentException("delay must not be negative, was " + delay);
		}
		if (delay.compareTo(MAX_DELAY) > 0) {
			throw new IllegalArgumentException(
					"delay must be at most " + MAX_DELAY + " (to run by " + LATEST_RUN_AT + "), was " + delay);
		}
	}

	/**
	 * Check a run-at: from the epoch to {@link #LATEST_RUN_AT}, or {@code null}.
	 * @param runAt the run-at
	 * @throws IllegalArgumentException naming the run-at when it is out of range
	 */
	public static void checkRunAt(@Nullable Instant runAt) {
		if (runAt != null && (runAt.isBefore(Instant.EPOCH) || runAt.isAfter(LATEST_RUN_AT))) {
			throw new IllegalArgumentException(
					"runAt must be from " + Instant.EPOCH + " to " + LATEST_RUN_AT + ", was " + runAt);
		}
	}

	/**
	 * Return how many attempts a job gets before it is dead-lettered.
	 * @return the attempts, at least 1
	 */
	public int maxAttempts() {
		return this.values.maxAttempts;
	}

	/**
	 * Return the priority: higher runs sooner; 0 keeps mint order.
	 * @return the priority
	 */
	public int priority() {
		return this.values.priority;
	}

	/**
	 * Return how long after enqueue (server time) the job becomes claimable.
	 * @return the delay, at most {@link #MAX_DELAY}
	 */
	public Duration delay() {
		return this.values.delay;
	}

	/**
	 * Return the absolute run-at that wins over {@link #delay()}.
	 * @return the run-at, or {@code null}
	 */
	public @Nullable Instant runAt() {
		return this.values.runAt;
	}

	/**
	 * Return the job's own handler timeout, kept on its row.
	 * @return the timeout, or {@code null} for the listener's
	 */
	public @Nullable Duration timeout() {
		return this.values.timeout;
	}

	/**
	 * Return the job's unique key.
	 * @return the key, or {@code null} for none
	 */
	public @Nullable UniqueKey unique() {
		return this.values.unique;
	}

	/**
	 * Return the job's lane key.
	 * @return the lane, or {@code null} for none
	 */
	public @Nullable String lane() {
		return this.values.lane;
	}

	/**
	 * Return the extra row fields (such as trace headers).
	 * @return the fields, never {@code null}
	 */
	public Map<String, String> fields() {
		return this.values.fields;
	}

	/**
	 * Return the row fields the enqueue writes besides the engine's core ones: the extra
	 * fields plus those of options kept on the row (such as the timeout).
	 * @return the fields to write
	 */
	public Map<String, String> rowFields() {
		if (this.values.timeout == null && this.values.unique == null) {
			return this.values.fields;
		}
		Map<String, String> all = new LinkedHashMap<>(this.values.fields);
		if (this.values.timeout != null) {
			all.put(TIMEOUT_FIELD, Long.toString(this.values.timeout.toMillis()));
		}
		UniqueKey unique = this.values.unique;
		if (unique != null) {
			all.put(UNIQUE_FIELD, unique.name());
			all.put(UNIQUE_MODE_FIELD, unique.mode().value());
			if (unique.mode() == UniqueMode.THROTTLE && unique.window() != null) {
				all.put(UNIQUE_TTL_FIELD, Long.toString(unique.window().toMillis()));
			}
		}
		return all;
	}

	/**
	 * Return a copy with another number of attempts.
	 * @param maxAttempts the attempts, at least 1
	 * @return the new spec
	 */
	public EnqueueSpec withMaxAttempts(int maxAttempts) {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
		}
		return with((values) -> values.maxAttempts = maxAttempts);
	}

	/**
	 * Return a copy with another priority.
	 * @param priority the priority
	 * @return the new spec
	 */
	public EnqueueSpec withPriority(int priority) {
		return with((values) -> values.priority = priority);
	}

	/**
	 * Return a copy with another delay.
	 * @param delay the delay
	 * @return the new spec
	 */
	public EnqueueSpec withDelay(Duration delay) {
		checkDelay(delay);
		return with((values) -> values.delay = delay);
	}

	/**
	 * Return a copy with an absolute run-at.
	 * @param runAt the run-at, or {@code null} for none
	 * @return the new spec
	 */
	public EnqueueSpec withRunAt(@Nullable Instant runAt) {
		checkRunAt(runAt);
		return with((values) -> values.runAt = runAt);
	}

	/**
	 * Return a copy with the job's own handler timeout.
	 * @param timeout the timeout, at least 1 ms, or {@code null} for the listener's
	 * @return the new spec
	 */
	public EnqueueSpec withTimeout(@Nullable Duration timeout) {
		if (timeout != null && timeout.toMillis() <= 0) {
			throw new IllegalArgumentException("timeout must be at least 1ms, was " + timeout);
		}
		return with((values) -> values.timeout = timeout);
	}

	/**
	 * Return a copy with a unique key. A debounce key also sets the delay to its window:
	 * the job runs that long after the last enqueue with the key.
	 * @param unique the key, or {@code null} for none
	 * @return the new spec
	 */
	public EnqueueSpec withUnique(@Nullable UniqueKey unique) {
		EnqueueSpec spec = with((values) -> values.unique = unique);
		if (unique != null && unique.mode() == UniqueMode.DEBOUNCE && unique.window() != null) {
			return spec.withDelay(unique.window()).withRunAt(null);
		}
		return spec;
	}

	/**
	 * Return a copy in a fair lane: the queue claims round-robin across the lanes that
	 * have ready work.
	 * @param lane the lane key, 1-64 characters of {@code [A-Za-z0-9._-]}, or
	 * {@code null} for none
	 * @return the new spec
	 * @throws io.echomq.core.InvalidQueueNameException if the lane key is not valid
	 */
	public EnqueueSpec withLane(@Nullable String lane) {
		if (lane != null) {
			Keyspace.validateLane(lane);
		}
		return with((values) -> values.lane = lane);
	}

	/**
	 * Return a copy whose rows also carry fields the engine owns (a flow's parent), which
	 * {@link #withFields(Map)} refuses.
	 * @param fields the fields to add
	 * @return the new spec
	 */
	EnqueueSpec withEngineFields(Map<String, String> fields) {
		Map<String, String> merged = new java.util.LinkedHashMap<>(this.values.fields);
		merged.putAll(fields);
		Map<String, String> copy = java.util.Collections.unmodifiableMap(merged);
		return with((values) -> values.fields = copy);
	}

	/**
	 * Return a copy with extra row fields.
	 * @param fields the fields; names must not clash with {@link #RESERVED_FIELDS} nor
	 * start with {@code +} (payload parts, see {@link RowPayload})
	 * @return the new spec
	 */
	public EnqueueSpec withFields(Map<String, String> fields) {
		Map<String, String> copy = Map.copyOf(fields);
		for (String field : copy.keySet()) {
			if (RESERVED_FIELDS.contains(field)) {
				throw new IllegalArgumentException("Row field '" + field + "' is reserved by EchoMQ");
			}
			if (field.startsWith("+")) {
				throw new IllegalArgumentException(
						"Row field '" + field + "' is reserved by EchoMQ: names starting with '+' hold payload parts");
			}
		}
		return with((values) -> values.fields = copy);
	}

	private EnqueueSpec with(Consumer<Values> change) {
		Values copy = this.values.copy();
		change.accept(copy);
		return new EnqueueSpec(copy);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof EnqueueSpec spec && this.values.equals(spec.values));
	}

	@Override
	public int hashCode() {
		return this.values.hashCode();
	}

	@Override
	public String toString() {
		return "EnqueueSpec" + this.values;
	}

	/**
	 * The mutable copy a {@code with*} method changes before it is frozen in a new spec.
	 */
	private static final class Values {

		int maxAttempts = 3;

		int priority;

		Duration delay = Duration.ZERO;

		@Nullable Instant runAt;

		@Nullable Duration timeout;

		Map<String, String> fields = Map.of();

		@Nullable UniqueKey unique;

		@Nullable String lane;

		Values copy() {
			Values copy = new Values();
			copy.maxAttempts = this.maxAttempts;
			copy.priority = this.priority;
			copy.delay = this.delay;
			copy.runAt = this.runAt;
			copy.timeout = this.timeout;
			copy.fields = this.fields;
			copy.unique = this.unique;
			copy.lane = this.lane;
			return copy;
		}

		private List<Object> all() {
			return Arrays.asList(this.maxAttempts, this.priority, this.delay, this.runAt, this.timeout, this.fields,
					this.unique, this.lane);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Values values && all().equals(values.all());
		}

		@Override
		public int hashCode() {
			return all().hashCode();
		}

		@Override
		public String toString() {
			return "[maxAttempts=" + this.maxAttempts + ", priority=" + this.priority + ", delay=" + this.delay
					+ ", runAt=" + this.runAt + ", timeout=" + this.timeout + ", fields=" + this.fields.keySet()
					+ ", unique=" + this.unique + ", lane=" + this.lane + "]";
		}

	}

}
