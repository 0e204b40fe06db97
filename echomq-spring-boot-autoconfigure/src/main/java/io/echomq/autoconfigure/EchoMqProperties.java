package io.echomq.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties for EchoMQ, under {@code echomq}.
 *
 * @param enabled Whether EchoMQ is enabled.
 * @param keyPrefix Prefix of every key EchoMQ writes; letters, digits, '.', '_' and '-'.
 * @param maxPayloadSize Largest serialized payload the template accepts.
 * @param listener Defaults for every {@code @EchoJob} listener.
 * @param maintenance Reap and promote ticks.
 * @param shutdown Graceful shutdown.
 * @param queues Per-queue overrides of the listener defaults, by queue name.
 * @param template The producer.
 * @param schedules Recurring schedules declared by configuration, by schedule name.
 * @param schedule The schedule tick, which every node runs.
 * @param results Job results: their size cap and how long they are kept.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq")
public record EchoMqProperties(@DefaultValue("true") boolean enabled, @DefaultValue("emq") String keyPrefix,
		@DefaultValue("1MB") DataSize maxPayloadSize, @DefaultValue Listener listener,
		@DefaultValue Maintenance maintenance, @DefaultValue Shutdown shutdown,
		Map<String, EchoMqQueueProperties> queues, @DefaultValue Template template,
		@Nullable Map<String, Schedule> schedules, @DefaultValue ScheduleTick schedule,
		@DefaultValue @NestedConfigurationProperty EchoMqResultsProperties results) {

	/**
	 * Validate the properties.
	 * @param enabled Whether EchoMQ is enabled.
	 * @param keyPrefix The key prefix.
	 * @param maxPayloadSize The largest payload.
	 * @param listener Listener defaults.
	 * @param maintenance Maintenance settings.
	 * @param shutdown Shutdown settings.
	 * @param queues Per-queue overrides.
	 * @param template The producer.
	 * @param schedules The declared schedules.
	 * @param schedule The schedule tick.
	 * @param results The results.
	 */
	@ConstructorBinding
	public EchoMqProperties {
		if (maxPayloadSize.toBytes() <= 0) {
			throw new IllegalArgumentException("echomq.max-payload-size must be positive, was " + maxPayloadSize);
		}
		queues = (queues != null) ? Map.copyOf(queues) : Map.of();
		schedules = (schedules != null) ? Map.copyOf(schedules) : Map.of();
	}

	/**
	 * Create the properties with the default results settings.
	 * @param enabled Whether EchoMQ is enabled.
	 * @param keyPrefix The key prefix.
	 * @param maxPayloadSize The largest payload.
	 * @param listener Listener defaults.
	 * @param maintenance Maintenance settings.
	 * @param shutdown Shutdown settings.
	 * @param queues Per-queue overrides.
	 * @param template The producer.
	 * @param schedules The declared schedules.
	 * @param schedule The schedule tick.
	 */
	public EchoMqProperties(boolean enabled, String keyPrefix, DataSize maxPayloadSize, Listener listener,
			Maintenance maintenance, Shutdown shutdown, @Nullable Map<String, EchoMqQueueProperties> queues,
			Template template, @Nullable Map<String, Schedule> schedules, ScheduleTick schedule) {
		this(enabled, keyPrefix, maxPayloadSize, listener, maintenance, shutdown, queues, template, schedules, schedule,
				EchoMqResultsProperties.defaults());
	}

	/**
	 * Return the properties with every default, for use without Spring Boot binding.
	 * @return the default properties
	 */
	public static EchoMqProperties defaults() {
		return new EchoMqProperties(true, "emq", DataSize.ofMegabytes(1), Listener.defaults(), Maintenance.defaults(),
				new Shutdown(Duration.ofSeconds(10)), Map.of(), new Template(true, false), Map.of(),
				new ScheduleTick(true, Duration.ofSeconds(1), Duration.ofMinutes(1)));
	}

	/**
	 * Listener defaults.
	 *
	 * @param concurrency Handlers run at once per queue.
	 * @param lease How long a claimed job is leased before another worker may take it
	 * over; renewed while the handler runs.
	 * @param maxAttempts Attempts before a job is dead-lettered.
	 * @param backoff Retry backoff.
	 * @param autoStartup Whether listeners start with the application context.
	 * @param idleWait Longest an idle listener blocks on its wake-up signal before it
	 * checks the queue again (a watchdog, not a poll interval).
	 * @param retryFor Only exceptions a failed attempt is retried for (matched against
	 * the cause chain); any other failure dead-letters the job at once. Empty retries
	 * every exception not in no-retry-for.
	 * @param noRetryFor Exceptions that dead-letter a job at once instead of being
	 * retried (matched against the cause chain).
	 * @param timeout How long a handler may run before its thread is interrupted and the
	 * attempt counts as failed; unset for no limit.
	 * @param observationEnabled Whether every handler invocation is observed, continuing
	 * the trace the producer stored on the job.
	 * @param claimAhead Jobs a busy listener claims beyond its concurrency, to start as
	 * soon as a handler returns; their leases are renewed while they wait, and a stop
	 * hands them back at once. Unset for as many as the concurrency; 0 to claim only for
	 * free handlers. Queues with flow limits never claim ahead.
	 */
	public record Listener(@DefaultValue("4") int concurrency, @DefaultValue("30s") Duration lease,
			@DefaultValue("3") int maxAttempts, @DefaultValue Backoff backoff,
			@DefaultValue("true") boolean autoStartup, @DefaultValue("10s") Duration idleWait,
			@Nullable List<Class<? extends Throwable>> retryFor, @Nullable List<Class<? extends Throwable>> noRetryFor,
			@Nullable Duration timeout, @DefaultValue("false") boolean observationEnabled,
			@Nullable Integer claimAhead) {

		/**
		 * Validate the listener defaults.
		 * @param concurrency Handlers at once.
		 * @param lease The lease.
		 * @param maxAttempts The attempts.
		 * @param backoff The backoff.
		 * @param autoStartup Whether to start automatically.
		 * @param idleWait The idle watchdog.
		 * @param retryFor The only exceptions retried.
		 * @param noRetryFor The exceptions never retried.
		 * @param timeout The handler timeout.
		 * @param observationEnabled Whether invocations are observed.
		 * @param claimAhead The jobs claimed beyond the concurrency.
		 */
		@ConstructorBinding
		public Listener {
			Checks.positive("echomq.listener.concurrency", concurrency);
			Checks.positive("echomq.listener.lease", lease);
			Checks.positive("echomq.listener.max-attempts", maxAttempts);
			Checks.positive("echomq.listener.idle-wait", idleWait);
			retryFor = (retryFor != null) ? List.copyOf(retryFor) : List.of();
			noRetryFor = (noRetryFor != null) ? List.copyOf(noRetryFor) : List.of();
			if (timeout != null) {
				Checks.positive("echomq.listener.timeout", timeout);
			}
			if (claimAhead != null) {
				Checks.notNegative("echomq.listener.claim-ahead", claimAhead);
			}
		}

		/**
		 * Create listener defaults that claim as many jobs ahead as the concurrency.
		 * @param concurrency Handlers at once.
		 * @param lease The lease.
		 * @param maxAttempts The attempts.
		 * @param backoff The backoff.
		 * @param autoStartup Whether to start automatically.
		 * @param idleWait The idle watchdog.
		 * @param retryFor The only exceptions retried.
		 * @param noRetryFor The exceptions never retried.
		 * @param timeout The handler timeout.
		 * @param observationEnabled Whether invocations are observed.
		 */
		public Listener(int concurrency, Duration lease, int maxAttempts, Backoff backoff, boolean autoStartup,
				Duration idleWait, @Nullable List<Class<? extends Throwable>> retryFor,
				@Nullable List<Class<? extends Throwable>> noRetryFor, @Nullable Duration timeout,
				boolean observationEnabled) {
			this(concurrency, lease, maxAttempts, backoff, autoStartup, idleWait, retryFor, noRetryFor, timeout,
					observationEnabled, null);
		}

		static Listener defaults() {
			return new Listener(4, Duration.ofSeconds(30), 3, Backoff.defaults(), true, Duration.ofSeconds(10), null,
					null, null, false, null);
		}

	}

	/**
	 * Exponential retry backoff: {@code initial * multiplier^(attempt-1)}, capped at
	 * {@code max}, spread by {@code jitter}.
	 *
	 * @param initial Backoff after the first failed attempt.
	 * @param multiplier Growth factor per further attempt (at least 1).
	 * @param max Longest backoff.
	 * @param jitter Fraction of the backoff randomly added or removed, 0 to 1.
	 */
	public record Backoff(@DefaultValue("1s") Duration initial, @DefaultValue("2.0") double multiplier,
			@DefaultValue("5m") Duration max, @DefaultValue("0.2") double jitter) {

		/**
		 * Validate the backoff.
		 * @param initial The first backoff.
		 * @param multiplier The growth factor.
		 * @param max The cap.
		 * @param jitter The spread.
		 */
		public Backoff {
			Checks.notNegative("echomq.listener.backoff.initial", initial);
			Checks.notNegative("echomq.listener.backoff.max", max);
			if (multiplier < 1.0 || Double.isNaN(multiplier)) {
				throw new IllegalArgumentException(
						"echomq.listener.backoff.multiplier must be at least 1.0, was " + multiplier);
			}
			if (jitter < 0.0 || jitter > 1.0 || Double.isNaN(jitter)) {
				throw new IllegalArgumentException(
						"echomq.listener.backoff.jitter must be between 0 and 1, was " + jitter);
			}
		}

		static Backoff defaults() {
			return new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2);
		}

	}

	/**
	 * Reap and promote ticks, run on every node. Each sleeps until the earliest lease
	 * deadline or run-at it knows of, or a listener's signal, at most the idle check.
	 *
	 * @param reapInterval Delay before a reap pass runs again when an expired lease
	 * stayed where it was.
	 * @param promoteInterval Delay before a promote pass runs again when a due job stayed
	 * where it was.
	 * @param batchSize Most ids one tick moves per queue.
	 * @param idleCheck Longest a queue goes without a reap and a promote read.
	 */
	public record Maintenance(@DefaultValue("1s") Duration reapInterval,
			@DefaultValue("100ms") Duration promoteInterval, @DefaultValue("500") int batchSize,
			@DefaultValue("5s") Duration idleCheck) {

		/**
		 * Validate the maintenance settings.
		 * @param reapInterval The reap retry delay.
		 * @param promoteInterval The promote retry delay.
		 * @param batchSize The batch size.
		 * @param idleCheck The idle check.
		 */
		public Maintenance {
			Checks.positive("echomq.maintenance.reap-interval", reapInterval);
			Checks.positive("echomq.maintenance.promote-interval", promoteInterval);
			Checks.positive("echomq.maintenance.batch-size", batchSize);
			Checks.positive("echomq.maintenance.idle-check", idleCheck);
		}

		static Maintenance defaults() {
			return new Maintenance(Duration.ofSeconds(1), Duration.ofMillis(100), 500, Duration.ofSeconds(5));
		}

	}

	/**
	 * Graceful shutdown.
	 *
	 * @param timeout How long to wait for in-flight handlers before releasing their jobs
	 * back to pending; keep it below spring.lifecycle.timeout-per-shutdown-phase.
	 */
	public record Shutdown(@DefaultValue("10s") Duration timeout) {

		/**
		 * Validate the shutdown settings.
		 * @param timeout The drain timeout.
		 */
		public Shutdown {
			Checks.notNegative("echomq.shutdown.timeout", timeout);
		}

	}

	/**
	 * The producer, {@code EchoMqTemplate}.
	 *
	 * @param enqueueAfterCommit Whether an enqueue inside a Spring-managed transaction
	 * waits for the commit and is dropped on rollback (unless the call's options say
	 * otherwise).
	 * @param observationEnabled Whether every enqueue call is observed and the trace
	 * context stored on the job rows.
	 */
	public record Template(@DefaultValue("true") boolean enqueueAfterCommit,
			@DefaultValue("false") boolean observationEnabled) {

	}

	/**
	 * A recurring schedule declared by configuration. It is validated when the
	 * application starts; an invalid one fails the start-up.
	 *
	 * @param queue Queue the occurrences are enqueued to.
	 * @param cron Cron expression with seconds (or a macro such as {@code @daily});
	 * exactly one of cron and every.
	 * @param every Fixed interval between fire times; exactly one of cron and every.
	 * @param zone Time zone of the cron expression.
	 * @param payload Payload of each occurrence, a string.
	 * @param enabled Whether the schedule is declared; a disabled one is removed from the
	 * store at start-up.
	 * @param misfire What to do about fire times missed while no node ran: skip them, run
	 * once for all of them, or catch up the most recent ones.
	 * @param catchUp How many of the most recent missed times the catch-up misfire policy
	 * fires, 1 to {@value ScheduleSpec#MAX_CATCH_UP}.
	 * @param overlap What a fire time does while the previous occurrence's job is still
	 * pending or running.
	 * @param start The first instant the schedule may fire at, ISO-8601; none by default.
	 * @param end The last instant the schedule may fire at, ISO-8601; none by default.
	 */
	public record Schedule(@Nullable String queue, @Nullable String cron, @Nullable Duration every,
			@DefaultValue("UTC") String zone, @DefaultValue("") String payload, @DefaultValue("true") boolean enabled,
			@DefaultValue("skip") MisfirePolicy misfire, @DefaultValue("3") int catchUp,
			@DefaultValue("allow") OverlapPolicy overlap, @Nullable Instant start, @Nullable Instant end) {

		/**
		 * Create a schedule declaration.
		 * @param queue The queue.
		 * @param cron The cron expression.
		 * @param every The interval.
		 * @param zone The time zone.
		 * @param payload The payload.
		 * @param enabled Whether it is declared.
		 * @param misfire The misfire policy.
		 * @param catchUp The catch-up count.
		 * @param overlap The overlap policy.
		 * @param start The first instant, or {@code null}.
		 * @param end The last instant, or {@code null}.
		 * @since 0.5.0
		 */
		@ConstructorBinding
		public Schedule {
		}

		/**
		 * Create a schedule declaration that overlaps, catches up
		 * {@value ScheduleSpec#DEFAULT_CATCH_UP} times and has no start or end.
		 * @param queue The queue.
		 * @param cron The cron expression.
		 * @param every The interval.
		 * @param zone The time zone.
		 * @param payload The payload.
		 * @param enabled Whether it is declared.
		 * @param misfire The misfire policy.
		 */
		public Schedule(@Nullable String queue, @Nullable String cron, @Nullable Duration every, String zone,
				String payload, boolean enabled, MisfirePolicy misfire) {
			this(queue, cron, every, zone, payload, enabled, misfire, ScheduleSpec.DEFAULT_CATCH_UP,
					OverlapPolicy.ALLOW, null, null);
		}

	}

	/**
	 * The schedule tick, which every node runs.
	 *
	 * @param enabled Whether this node runs the schedule tick and puts the declared
	 * schedules in the store at start-up.
	 * @param interval Delay between two ticks.
	 * @param misfireThreshold How late a fire time may be and still fire on time; an
	 * older one was missed and follows the schedule's misfire policy.
	 */
	public record ScheduleTick(@DefaultValue("true") boolean enabled, @DefaultValue("1s") Duration interval,
			@DefaultValue("1m") Duration misfireThreshold) {

		/**
		 * Validate the schedule tick.
		 * @param enabled Whether the tick runs.
		 * @param interval The interval.
		 * @param misfireThreshold The threshold.
		 */
		public ScheduleTick {
			Checks.positive("echomq.schedule.interval", interval);
			Checks.notNegative("echomq.schedule.misfire-threshold", misfireThreshold);
		}

	}

}
