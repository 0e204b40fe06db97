package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.echomq.core.Durability;
import io.echomq.core.QueuePartitions;
import io.echomq.core.Retention;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Overrides of the listener defaults for one queue; unset values inherit.
 *
 * @param concurrency Handlers run at once.
 * @param lease The lease.
 * @param maxAttempts Attempts before dead-lettering.
 * @param backoff Retry backoff; unset values inherit {@code echomq.listener.backoff}.
 * @param autoStartup Whether the listener starts with the context.
 * @param retryFor Only exceptions a failed attempt is retried for; unset inherits
 * {@code echomq.listener.retry-for}.
 * @param noRetryFor Exceptions that dead-letter a job at once; unset inherits
 * {@code echomq.listener.no-retry-for}.
 * @param timeout How long a handler may run; unset inherits
 * {@code echomq.listener.timeout}.
 * @param retention How much history the queue keeps: completed jobs (none unless set) and
 * dead jobs (10,000 and 7 days unless set).
 * @param partitions Number of partitions (full queues on hash slots of their own) the
 * queue is spread over, 1 to 256; unset means 1, exactly the keys of an unpartitioned
 * queue. Changing it for a queue that holds jobs is refused at start-up.
 * @param maxActive Most jobs of the queue active at once across every node (a
 * cluster-wide cap, besides each node's concurrency); unset for no cap.
 * @param rateLimit Most jobs of the queue started per period across every node; unset for
 * no limit.
 * @param lanes Limits of each fair lane of the queue, across every node.
 * @param results The queue's results: how long it keeps them without retention.
 * @param encryption Whether the queue's payloads, results and progress objects are
 * encrypted on the client (AES-256-GCM, keys under {@code echomq.encryption}).
 * @param durability Replicas that must acknowledge each enqueue to the queue before it
 * returns; unset for none (Redis replication is asynchronous).
 * @param events The queue's job events: whether its transitions write its event stream,
 * and its bound.
 * @param expiry How long a job enqueued to the queue without an expiry of its own may
 * wait to be claimed once it is due; past it the job never runs and moves to dead (reason
 * expired). Unset for no expiry.
 * @author EchoMQ
 * @since 0.1.0
 */
public record EchoMqQueueProperties(@Nullable Integer concurrency, @Nullable Duration lease,
		@Nullable Integer maxAttempts, @Nullable BackoffOverrides backoff, @Nullable Boolean autoStartup,
		@Nullable List<Class<? extends Throwable>> retryFor, @Nullable List<Class<? extends Throwable>> noRetryFor,
		@Nullable Duration timeout, @Nullable RetentionProperties retention, @Nullable Integer partitions,
		@Nullable Integer maxActive, @Nullable RateLimit rateLimit, @Nullable Lanes lanes,
		EchoMqResultsProperties.@Nullable Queue results, @Nullable Encryption encryption,
		@Nullable DurabilityProperties durability, @Nullable EchoMqEventsProperties events, @Nullable Duration expiry) {

	/**
	 * Validate the overrides.
	 * @param concurrency Handlers at once.
	 * @param lease The lease.
	 * @param maxAttempts The attempts.
	 * @param backoff The backoff.
	 * @param autoStartup Whether to start automatically.
	 * @param retryFor The only exceptions retried.
	 * @param noRetryFor The exceptions never retried.
	 * @param timeout The handler timeout.
	 * @param retention The history kept.
	 * @param partitions The partition count.
	 * @param maxActive The cluster-wide cap on active jobs.
	 * @param rateLimit The cluster-wide rate limit.
	 * @param lanes The per-lane limits.
	 * @param results The result settings.
	 * @param encryption The payload encryption.
	 * @param durability The replicas each enqueue waits for.
	 * @param events The event settings.
	 * @param expiry The default expiry.
	 */
	@ConstructorBinding
	public EchoMqQueueProperties {
		if (concurrency != null) {
			Checks.positive("echomq.queues.*.concurrency", concurrency);
		}
		if (lease != null) {
			Checks.positive("echomq.queues.*.lease", lease);
		}
		if (maxAttempts != null) {
			Checks.positive("echomq.queues.*.max-attempts", maxAttempts);
		}
		if (timeout != null) {
			Checks.positive("echomq.queues.*.timeout", timeout);
		}
		if (partitions != null && (partitions < 1 || partitions > QueuePartitions.MAX_PARTITIONS)) {
			throw new IllegalArgumentException("echomq.queues.*.partitions must be between 1 and "
					+ QueuePartitions.MAX_PARTITIONS + ", was " + partitions);
		}
		if (maxActive != null) {
			Checks.positive("echomq.queues.*.max-active", maxActive);
		}
		if (expiry != null) {
			Checks.positive("echomq.queues.*.expiry", expiry);
		}
	}

	/**
	 * Overrides with no default expiry, as before queues took one.
	 * @param concurrency Handlers at once.
	 * @param lease The lease.
	 * @param maxAttempts The attempts.
	 * @param backoff The backoff.
	 * @param autoStartup Whether to start automatically.
	 * @param retryFor The only exceptions retried.
	 * @param noRetryFor The exceptions never retried.
	 * @param timeout The handler timeout.
	 * @param retention The history kept.
	 * @param partitions The partition count.
	 * @param maxActive The cluster-wide cap on active jobs.
	 * @param rateLimit The cluster-wide rate limit.
	 * @param lanes The per-lane limits.
	 * @param results The result settings.
	 * @param encryption The payload encryption.
	 * @param durability The replicas each enqueue waits for.
	 * @param events The event settings.
	 */
	public EchoMqQueueProperties(@Nullable Integer concurrency, @Nullable Duration lease, @Nullable Integer maxAttempts,
			@Nullable BackoffOverrides backoff, @Nullable Boolean autoStartup,
			@Nullable List<Class<? extends Throwable>> retryFor, @Nullable List<Class<? extends Throwable>> noRetryFor,
			@Nullable Duration timeout, @Nullable RetentionProperties retention, @Nullable Integer partitions,
			@Nullable Integer maxActive, @Nullable RateLimit rateLimit, @Nullable Lanes lanes,
			EchoMqResultsProperties.@Nullable Queue results, @Nullable Encryption encryption,
			@Nullable DurabilityProperties durability, @Nullable EchoMqEventsProperties events) {
		this(concurrency, lease, maxAttempts, backoff, autoStartup, retryFor, noRetryFor, timeout, retention,
				partitions, maxActive, rateLimit, lanes, results, encryption, durability, events, null);
	}

	/**
	 * Payload encryption of one queue ({@code echomq.queues.<queue>.encryption.*}).
	 *
	 * @param enabled Whether payloads, results and progress objects of the queue are
	 * encrypted with the current payload key before they are stored.
	 */
	public record Encryption(@DefaultValue("false") boolean enabled) {

	}

	/**
	 * Replica-acknowledged enqueue for one queue: each enqueue returns once this many
	 * replicas have the jobs ({@code WAIT}), or throws
	 * {@code ReplicationTimeoutException} after the timeout, the jobs written on the
	 * primary. Standalone and Sentinel only.
	 *
	 * @param replicas Replicas that must acknowledge each enqueue.
	 * @param timeout Longest wait for them.
	 */
	public record DurabilityProperties(@DefaultValue("1") int replicas, @DefaultValue("1s") Duration timeout) {

		/**
		 * Validate the settings.
		 * @param replicas The replicas.
		 * @param timeout The longest wait.
		 */
		public DurabilityProperties {
			Checks.positive("echomq.queues.*.durability.replicas", replicas);
			Checks.positive("echomq.queues.*.durability.timeout", timeout);
		}

		/**
		 * Return the durability the template applies.
		 * @return the durability
		 */
		public Durability toDurability() {
			return Durability.replicas(this.replicas, this.timeout);
		}

	}

	/**
	 * How much history one queue keeps.
	 *
	 * @param completed Completed jobs kept (with their rows, in
	 * {@code emq:{q}:completed}); none unless a count or an age is set.
	 * @param dead Dead jobs kept; an unset bound keeps its default (count 10,000, age 7
	 * days), a bound of 0 means no bound of that kind.
	 */
	public record RetentionProperties(@Nullable HistoryBounds completed, @Nullable HistoryBounds dead) {

		/**
		 * Return the bounds of completed jobs.
		 * @return the bounds, {@link Retention#NONE} unless set
		 */
		public Retention completedRetention() {
			HistoryBounds bounds = this.completed;
			if (bounds == null) {
				return Retention.NONE;
			}
			return bounds.toRetention("completed", 0, Duration.ZERO);
		}

		/**
		 * Return the bounds of dead jobs.
		 * @return the bounds, {@link Retention#DEAD_DEFAULT} for each bound not set
		 */
		public Retention deadRetention() {
			HistoryBounds bounds = this.dead;
			if (bounds == null) {
				return Retention.DEAD_DEFAULT;
			}
			return bounds.toRetention("dead", Retention.DEAD_DEFAULT.count(), Retention.DEAD_DEFAULT.age());
		}

	}

	/**
	 * Bounds of one history location.
	 *
	 * @param count Most jobs kept (0: no count bound).
	 * @param age Most age of a kept job, from the time it got there (0: no age bound).
	 */
	public record HistoryBounds(@Nullable Long count, @Nullable Duration age) {

		/**
		 * Validate the bounds.
		 * @param count The most jobs kept.
		 * @param age The most age.
		 */
		public HistoryBounds {
			if (count != null && (count < 0 || count > Retention.MAX_COUNT)) {
				throw new IllegalArgumentException("echomq.queues.*.retention.*.count must be between 0 and "
						+ Retention.MAX_COUNT + ", was " + count);
			}
			if (age != null) {
				Checks.notNegative("echomq.queues.*.retention.*.age", age);
			}
		}

		Retention toRetention(String location, long defaultCount, Duration defaultAge) {
			long bound = (this.count != null) ? this.count : defaultCount;
			Duration maxAge = (this.age != null) ? this.age : defaultAge;
			try {
				return new Retention(bound, maxAge);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"Invalid echomq.queues.*.retention." + location + ": " + ex.getMessage(), ex);
			}
		}

	}

	/**
	 * Limits of each fair lane of a queue, across every node.
	 *
	 * @param maxActive Most jobs of one lane active at once across every node; 1 makes
	 * each lane key a mutex. Unset for no cap.
	 * @param rateLimit Most jobs of one lane started per period across every node; unset
	 * for no limit.
	 */
	public record Lanes(@Nullable Integer maxActive, @Nullable RateLimit rateLimit) {

		/**
		 * Validate the lane limits.
		 * @param maxActive The per-lane cap.
		 * @param rateLimit The per-lane rate limit.
		 */
		public Lanes {
			if (maxActive != null) {
				Checks.positive("echomq.queues.*.lanes.max-active", maxActive);
			}
		}

	}

	/**
	 * A cluster-wide rate limit: at most {@code limit} jobs started in any window of
	 * {@code period}, enforced by the claim script on server time (a sliding-window log).
	 *
	 * @param limit Most jobs started per period.
	 * @param period Length of the sliding window.
	 */
	public record RateLimit(int limit, @DefaultValue("1s") Duration period) {

		/**
		 * Validate the rate limit.
		 * @param limit The most starts per period.
		 * @param period The window.
		 */
		public RateLimit {
			Checks.positive("echomq.queues.*.rate-limit.limit (or .lanes.rate-limit.limit)", limit);
			Checks.positive("echomq.queues.*.rate-limit.period (or .lanes.rate-limit.period)", period);
		}

	}

	/**
	 * Per-queue overrides of the retry backoff; each unset value inherits
	 * {@code echomq.listener.backoff}.
	 *
	 * @param initial Backoff after the first failed attempt.
	 * @param multiplier Growth factor per further attempt (at least 1).
	 * @param max Longest backoff.
	 * @param jitter Fraction of the backoff randomly added or removed, 0 to 1.
	 */
	public record BackoffOverrides(@Nullable Duration initial, @Nullable Double multiplier, @Nullable Duration max,
			@Nullable Double jitter) {

		/**
		 * Validate the overrides.
		 * @param initial The first backoff.
		 * @param multiplier The growth factor.
		 * @param max The cap.
		 * @param jitter The spread.
		 */
		public BackoffOverrides {
			if (initial != null) {
				Checks.notNegative("echomq.queues.*.backoff.initial", initial);
			}
			if (max != null) {
				Checks.notNegative("echomq.queues.*.backoff.max", max);
			}
			if (multiplier != null && (multiplier < 1.0 || multiplier.isNaN())) {
				throw new IllegalArgumentException(
						"echomq.queues.*.backoff.multiplier must be at least 1.0, was " + multiplier);
			}
			if (jitter != null && (jitter < 0.0 || jitter > 1.0 || jitter.isNaN())) {
				throw new IllegalArgumentException(
						"echomq.queues.*.backoff.jitter must be between 0 and 1, was " + jitter);
			}
		}

	}

}
