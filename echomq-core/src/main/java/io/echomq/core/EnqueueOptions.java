package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Options for one enqueue: delay or run-at, priority, attempt budget, handler timeout, an
 * expiry, a unique key, and whether to wait for the surrounding transaction's commit.
 * Immutable; each {@code with*} method returns a validated copy.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class EnqueueOptions {

	/**
	 * The latest run-at a job may have: the end of year 9999 (UTC). Every run-at up to it
	 * is exact in milliseconds in a server's scores and script numbers.
	 * @since 0.4.0
	 */
	public static final Instant LATEST_RUN_AT = Instant.parse("9999-12-31T23:59:59.999Z");

	/**
	 * The longest delay a job may have, as long as the time from the epoch to
	 * {@link #LATEST_RUN_AT}.
	 * @since 0.4.0
	 */
	public static final Duration MAX_DELAY = Duration.ofMillis(LATEST_RUN_AT.toEpochMilli());

	private static final EnqueueOptions DEFAULTS = new EnqueueOptions(new Values());

	private final Values values;

	private EnqueueOptions(Values values) {
		this.values = values;
	}

	/**
	 * Return the default options: run now, priority 0, the queue's attempt budget, the
	 * listener's timeout, the template's transaction behaviour.
	 * @return the defaults
	 */
	public static EnqueueOptions defaults() {
		return DEFAULTS;
	}

	/**
	 * Return options that delay the job.
	 * @param delay the delay
	 * @return the options
	 */
	public static EnqueueOptions delayed(Duration delay) {
		return DEFAULTS.withDelay(delay);
	}

	/**
	 * Return how long after enqueue the job becomes claimable.
	 * @return the delay, or {@code null} for none
	 */
	public @Nullable Duration delay() {
		return this.values.delay;
	}

	/**
	 * Return the absolute run-at, which wins over {@link #delay()}.
	 * @return the run-at, or {@code null} for none
	 */
	public @Nullable Instant runAt() {
		return this.values.runAt;
	}

	/**
	 * Return the priority: higher runs sooner; 0 keeps enqueue order.
	 * @return the priority
	 */
	public int priority() {
		return this.values.priority;
	}

	/**
	 * Return the attempt budget.
	 * @return the budget, or {@code null} for the queue's configured default
	 */
	public @Nullable Integer maxAttempts() {
		return this.values.maxAttempts;
	}

	/**
	 * Return the job's own handler timeout.
	 * @return the timeout, or {@code null} for the listener's
	 */
	public @Nullable Duration timeout() {
		return this.values.timeout;
	}

	/**
	 * Return how long after the enqueue (server time) the job may still be claimed.
	 * @return the expiry, or {@code null} for none (or an {@link #expiresAt()} instead)
	 * @since 0.5.0
	 */
	public @Nullable Duration expiry() {
		return this.values.expiry;
	}

	/**
	 * Return the instant (server time) by which the job must be claimed.
	 * @return the deadline, or {@code null} for none (or an {@link #expiry()} instead)
	 * @since 0.5.0
	 */
	public @Nullable Instant expiresAt() {
		return this.values.expiresAt;
	}

	/**
	 * Return a copy with an expiry: a job not claimed within {@code expiry} of its
	 * enqueue (on the server's clock) never runs; the claim (or the promotion of a
	 * delayed job) that reaches it moves it to dead instead, with the reason
	 * {@code expired}. Each attempt counts: a retry not claimed by the deadline expires
	 * too. Replaces any {@link #withExpiresAt(Instant) deadline}.
	 * @param expiry the expiry, at least 1 ms and more than any delay
	 * @return the copy
	 * @throws IllegalArgumentException if the expiry is not positive
	 * @since 0.5.0
	 */
	public EnqueueOptions withExpiry(Duration expiry) {
		if (expiry == null || expiry.toMillis() <= 0) {
			throw new IllegalArgumentException("expiry must be at least 1ms, was " + expiry);
		}
		if (expiry.compareTo(MAX_DELAY) > 0) {
			throw new IllegalArgumentException("expiry must be at most " + MAX_DELAY + ", was " + expiry);
		}
		return with((values) -> {
			values.expiry = expiry;
			values.expiresAt = null;
		});
	}

	/**
	 * Return a copy with a deadline: a job not claimed by {@code expiresAt} (on the
	 * server's clock) never runs, as {@link #withExpiry(Duration)} describes. The enqueue
	 * refuses a deadline that is not after the server's time and the job's run-at,
	 * writing nothing. Replaces any {@link #withExpiry(Duration) expiry}.
	 * @param expiresAt the deadline, after the epoch and at most {@link #LATEST_RUN_AT}
	 * @return the copy
	 * @throws IllegalArgumentException if the deadline is out of range
	 * @since 0.5.0
	 */
	public EnqueueOptions withExpiresAt(Instant expiresAt) {
		if (expiresAt == null || !expiresAt.isAfter(Instant.EPOCH) || expiresAt.isAfter(LATEST_RUN_AT)) {
			throw new IllegalArgumentException("expiresAt must be after " + Instant.EPOCH + " and at most "
					+ LATEST_RUN_AT + ", was " + expiresAt);
		}
		return with((values) -> {
			values.expiresAt = expiresAt;
			values.expiry = null;
		});
	}

	/**
	 * Return whether an enqueue inside a transaction waits for its commit.
	 * @return the choice, or {@code null} for the template's default
	 */
	public @Nullable Boolean afterCommit() {
		return this.values.afterCommit;
	}

	/**
	 * Return the job's unique key.
	 * @return the key, or {@code null} for none
	 */
	public @Nullable UniqueKey unique() {
		return this.values.unique;
	}

	/**
	 * Return a copy with a unique key held while the job exists
	 * ({@link UniqueMode#UNTIL_DONE}): until it completes or is dead-lettered, an enqueue
	 * with the same key in the same queue makes no job and returns this one's id.
	 * @param key the key, 1 to {@value UniqueKey#MAX_LENGTH} characters of
	 * {@code [A-Za-z0-9._~@/+=-]}
	 * @return the copy
	 * @throws IllegalArgumentException naming the bad key
	 */
	public EnqueueOptions withUniqueKey(String key) {
		return withUnique(UniqueKey.untilDone(key));
	}

	/**
	 * Return a copy with a throttle key ({@link UniqueMode#THROTTLE}): for {@code window}
	 * after this enqueue (server time), an enqueue with the same key makes no job,
	 * whatever became of this one.
	 * @param key the key (see {@link #withUniqueKey(String)})
	 * @param window the window, from 1 ms to {@link UniqueKey#MAX_WINDOW}
	 * @return the copy
	 * @throws IllegalArgumentException naming the bad key or window
	 */
	public EnqueueOptions withThrottle(String key, Duration window) {
		return withUnique(UniqueKey.throttle(key, window));
	}

	/**
	 * Return a copy with a debounce key ({@link UniqueMode#DEBOUNCE}): the job runs
	 * {@code delay} after the last enqueue with the key, with the last payload. An
	 * enqueue while the job waits replaces its payload and pushes its run-at back; once
	 * it runs, the next enqueue makes a new job. The delay replaces any delay or run-at.
	 * @param key the key (see {@link #withUniqueKey(String)})
	 * @param delay the quiet time before the job runs, from 1 ms to
	 * {@link UniqueKey#MAX_WINDOW}
	 * @return the copy
	 * @throws IllegalArgumentException naming the bad key or delay
	 */
	public EnqueueOptions withDebounce(String key, Duration delay) {
		return withUnique(UniqueKey.debounce(key, delay));
	}

	/**
	 * Return a copy with a unique key.
	 * @param unique the key, or {@code null} for none
	 * @return the copy
	 */
	public EnqueueOptions withUnique(@Nullable UniqueKey unique) {
		return with((values) -> values.unique = unique);
	}

	/**
	 * Return the partition key: jobs with one key go to one partition of a partitioned
	 * queue (and so keep their order there).
	 * @return the key, or {@code null} to spread jobs round-robin
	 */
	public @Nullable String partitionKey() {
		return this.values.partitionKey;
	}

	/**
	 * Return a copy with a partition key, which picks the partition of a partitioned
	 * queue (a hash of the key modulo the partition count); ignored by a queue with one
	 * partition.
	 * @param partitionKey the key, 1 to {@value QueuePartitions#MAX_PARTITION_KEY_BYTES}
	 * UTF-8 bytes
	 * @return the copy
	 */
	public EnqueueOptions withPartitionKey(String partitionKey) {
		QueuePartitions.checkKey(partitionKey);
		return with((values) -> values.partitionKey = partitionKey);
	}

	/**
	 * Return a copy with a delay.
	 * @param delay the delay, not negative and at most {@link #MAX_DELAY}
	 * @return the copy
	 */
	public EnqueueOptions withDelay(Duration delay) {
		checkDelay(delay);
		return with((values) -> values.delay = delay);
	}

	/**
	 * Return a copy with an absolute run-at.
	 * @param runAt the run-at, from the epoch to {@link #LATEST_RUN_AT}
	 * @return the copy
	 */
	public EnqueueOptions withRunAt(Instant runAt) {
		if (runAt == null) {
			throw new IllegalArgumentException("runAt must not be null");
		}
		checkRunAt(runAt);
		return with((values) -> values.runAt = runAt);
	}

	/**
	 * Return a copy with a priority.
	 * @param priority higher runs sooner
	 * @return the copy
	 */
	public EnqueueOptions withPriority(int priority) {
		return with((values) -> values.priority = priority);
	}

	/**
	 * Return a copy with an attempt budget.
	 * @param maxAttempts the attempts before dead-lettering, at least 1
	 * @return the copy
	 */
	public EnqueueOptions withMaxAttempts(int maxAttempts) {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
		}
		return with((values) -> values.maxAttempts = maxAttempts);
	}

	/**
	 * Return a copy with the job's own handler timeout, which wins over the listener's:
	 * past it the handler thread is interrupted and the attempt counts as failed.
	 * @param timeout the timeout, at least 1 ms
	 * @return the copy
	 */
	public EnqueueOptions withTimeout(Duration timeout) {
		if (timeout == null || timeout.toMillis() <= 0) {
			throw new IllegalArgumentException("timeout must be at least 1ms, was " + timeout);
		}
		return with((values) -> values.timeout = timeout);
	}

	/**
	 * Return a copy in a fair lane (a tenant, a customer, a remote host): the queue
	 * claims round-robin across the lanes that have ready work, so a lane with many
	 * pending jobs cannot starve one with few.
	 * @param lane the lane key, 1-64 characters of {@code [A-Za-z0-9._-]}
	 * @return the copy
	 * @throws io.echomq.core.InvalidQueueNameException if the lane key is too long,
	 * empty, or has braces, colons or other characters outside {@code [A-Za-z0-9._-]}
	 */
	public EnqueueOptions withLane(String lane) {
		Keyspace.validateLane(lane);
		return with((values) -> values.lane = lane);
	}

	/**
	 * Return the lane key.
	 * @return the lane, or {@code null} for none
	 */
	public @Nullable String lane() {
		return this.values.lane;
	}

	/**
	 * Return a copy that says whether an enqueue inside a Spring-managed transaction
	 * waits for the commit (and is dropped on rollback), whatever the template's default.
	 * @param afterCommit {@code true} to wait for the commit, {@code false} to write at
	 * once
	 * @return the copy
	 */
	public EnqueueOptions withAfterCommit(boolean afterCommit) {
		return with((values) -> values.afterCommit = afterCommit);
	}

	private EnqueueOptions with(Consumer<Values> change) {
		Values copy = this.values.copy();
		change.accept(copy);
		return new EnqueueOptions(copy);
	}

	/**
	 * Check a delay as {@link #withDelay(Duration)} does: not negative and at most
	 * {@link #MAX_DELAY}.
	 * @param delay the delay
	 * @throws IllegalArgumentException naming the delay when it is out of range
	 * @since 0.4.0
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
	 * Check a run-at as {@link #withRunAt(Instant)} does: from the epoch to
	 * {@link #LATEST_RUN_AT}, or {@code null}.
	 * @param runAt the run-at
	 * @throws IllegalArgumentException naming the run-at when it is out of range
	 * @since 0.4.0
	 */
	public static void checkRunAt(@Nullable Instant runAt) {
		if (runAt != null && (runAt.isBefore(Instant.EPOCH) || runAt.isAfter(LATEST_RUN_AT))) {
			throw new IllegalArgumentException(
					"runAt must be from " + Instant.EPOCH + " to " + LATEST_RUN_AT + ", was " + runAt);
		}
	}

	private List<Object> all() {
		return Arrays.asList(this.values.delay, this.values.runAt, this.values.priority, this.values.maxAttempts,
				this.values.timeout, this.values.afterCommit, this.values.unique, this.values.partitionKey,
				this.values.lane, this.values.expiry, this.values.expiresAt);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof EnqueueOptions options && all().equals(options.all()));
	}

	@Override
	public int hashCode() {
		return all().hashCode();
	}

	@Override
	public String toString() {
		return "EnqueueOptions[delay=" + this.values.delay + ", runAt=" + this.values.runAt + ", priority="
				+ this.values.priority + ", maxAttempts=" + this.values.maxAttempts + ", timeout=" + this.values.timeout
				+ ", afterCommit=" + this.values.afterCommit + ", unique=" + this.values.unique + ", partitionKey="
				+ this.values.partitionKey + ", lane=" + this.values.lane + ", expiry=" + this.values.expiry
				+ ", expiresAt=" + this.values.expiresAt + "]";
	}

	/**
	 * A mutable copy a {@code with*} method changes before it is frozen in new options.
	 */
	private static final class Values {

		@Nullable Duration delay;

		@Nullable Instant runAt;

		int priority;

		@Nullable Duration timeout;

		@Nullable String lane;

		@Nullable Integer maxAttempts;

		@Nullable Boolean afterCommit;

		@Nullable UniqueKey unique;

		@Nullable String partitionKey;

		@Nullable Duration expiry;

		@Nullable Instant expiresAt;

		Values copy() {
			Values copy = new Values();
			copy.delay = this.delay;
			copy.runAt = this.runAt;
			copy.priority = this.priority;
			copy.timeout = this.timeout;
			copy.lane = this.lane;
			copy.maxAttempts = this.maxAttempts;
			copy.afterCommit = this.afterCommit;
			copy.unique = this.unique;
			copy.partitionKey = this.partitionKey;
			copy.expiry = this.expiry;
			copy.expiresAt = this.expiresAt;
			return copy;
		}

	}

}
