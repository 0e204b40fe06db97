package io.echomq.core.internal;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.Keyspace;
import io.echomq.core.RowFields;
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
	public static final String TIMEOUT_FIELD = RowFields.TIMEOUT;

	/** Row field naming the job's unique key (see {@link UniqueKey}). */
	public static final String UNIQUE_FIELD = RowFields.UNIQUE;

	/** Row field of the unique key's mode ({@link UniqueMode#value()}). */
	public static final String UNIQUE_MODE_FIELD = RowFields.UNIQUE_MODE;

	/** Row field of a throttle key's window, in milliseconds. */
	public static final String UNIQUE_TTL_FIELD = RowFields.UNIQUE_TTL;

	/**
	 * Extra field of an enqueue call that asks for an expiry in ms from the enqueue
	 * (server time): {@code enqueue.lua} writes the row's {@link RowFields#EXPIRES_AT}
	 * instead ({@code includes/expiry.lua}).
	 */
	static final String EXPIRE_IN_FIELD = "expire_in";

	/** The latest run-at a job may have ({@link EnqueueOptions#LATEST_RUN_AT}). */
	public static final Instant LATEST_RUN_AT = EnqueueOptions.LATEST_RUN_AT;

	/** The longest delay a job may have ({@link EnqueueOptions#MAX_DELAY}). */
	public static final Duration MAX_DELAY = EnqueueOptions.MAX_DELAY;

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
	 * Return the handler timeout a job row's fields carry ({@link RowFields#timeout}).
	 * @param fields the row fields
	 * @return the timeout, or {@code null} when the row sets none or an unreadable one
	 */
	public static @Nullable Duration timeoutOf(Map<String, String> fields) {
		return RowFields.timeout(fields);
	}

	/**
	 * Return the spec of a job an application enqueues with options.
	 * @param options the options
	 * @param maxAttempts the attempts, the options' own or the template's default
	 * @param fields the extra row fields (the interceptors')
	 * @return the spec
	 */
	public static EnqueueSpec of(EnqueueOptions options, int maxAttempts, Map<String, String> fields) {
		EnqueueSpec spec = DEFAULTS.withMaxAttempts(maxAttempts)
			.withFields(fields)
			.withPriority(options.priority())
			.withRunAt(options.runAt())
			.withTimeout(options.timeout())
			.withLane(options.lane())
			.withExpiry(options.expiry(), options.expiresAt());
		Duration delay = options.delay();
		if (delay != null) {
			spec = spec.withDelay(delay);
		}
		return spec.withUnique(options.unique());
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
	 * Return how long after the enqueue (server time) the job may still be claimed.
	 * @return the expiry, or {@code null} for none
	 */
	public @Nullable Duration expiry() {
		return this.values.expiry;
	}

	/**
	 * Return the instant (server time) by which the job must be claimed.
	 * @return the deadline, or {@code null} for none
	 */
	public @Nullable Instant expiresAt() {
		return this.values.expiresAt;
	}

	/**
	 * Return a copy with an expiry or a deadline (at most one of them; both {@code null}
	 * for none), as {@link EnqueueOptions#withExpiry(Duration)} and
	 * {@link EnqueueOptions#withExpiresAt(Instant)} describe.
	 * @param expiry the expiry, at least 1 ms
	 * @param expiresAt the deadline
	 * @return the new spec
	 */
	public EnqueueSpec withExpiry(@Nullable Duration expiry, @Nullable Instant expiresAt) {
		if (expiry != null && expiresAt != null) {
			throw new IllegalArgumentException("an enqueue takes an expiry or a deadline, not both");
		}
		if (expiry != null && expiry.toMillis() <= 0) {
			throw new IllegalArgumentException("expiry must be at least 1ms, was " + expiry);
		}
		return with((values) -> {
			values.expiry = expiry;
			values.expiresAt = expiresAt;
		});
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
		if (this.values.timeout == null && this.values.unique == null && this.values.expiry == null
				&& this.values.expiresAt == null) {
			return this.values.fields;
		}
		Map<String, String> all = new LinkedHashMap<>(this.values.fields);
		if (this.values.timeout != null) {
			all.put(TIMEOUT_FIELD, Long.toString(this.values.timeout.toMillis()));
		}
		if (this.values.expiry != null) {
			all.put(EXPIRE_IN_FIELD, Long.toString(this.values.expiry.toMillis()));
		}
		if (this.values.expiresAt != null) {
			all.put(RowFields.EXPIRES_AT, Long.toString(this.values.expiresAt.toEpochMilli()));
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
		EnqueueOptions.checkDelay(delay);
		return with((values) -> values.delay = delay);
	}

	/**
	 * Return a copy with an absolute run-at.
	 * @param runAt the run-at, or {@code null} for none
	 * @return the new spec
	 */
	public EnqueueSpec withRunAt(@Nullable Instant runAt) {
		EnqueueOptions.checkRunAt(runAt);
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
	 * @param fields the fields; names must not clash with {@link RowFields#RESERVED} nor
	 * start with {@code +} (payload parts, see {@link RowPayload})
	 * @return the new spec
	 */
	public EnqueueSpec withFields(Map<String, String> fields) {
		Map<String, String> copy = Map.copyOf(fields);
		for (String field : copy.keySet()) {
			if (RowFields.RESERVED.contains(field)) {
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

		@Nullable Duration expiry;

		@Nullable Instant expiresAt;

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
			copy.expiry = this.expiry;
			copy.expiresAt = this.expiresAt;
			return copy;
		}

		private List<Object> all() {
			return Arrays.asList(this.maxAttempts, this.priority, this.delay, this.runAt, this.timeout, this.fields,
					this.unique, this.lane, this.expiry, this.expiresAt);
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
					+ ", unique=" + this.unique + ", lane=" + this.lane + ", expiry=" + this.expiry + ", expiresAt="
					+ this.expiresAt + "]";
		}

	}

}
