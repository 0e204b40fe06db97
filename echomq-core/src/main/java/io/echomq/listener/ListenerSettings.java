package io.echomq.listener;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What one listener sets explicitly; every {@code null} value inherits, first from
 * {@code echomq.queues.<queue>.*}, then from {@code echomq.listener.*}. Immutable; build
 * one with {@link #builder()}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class ListenerSettings {

	private static final ListenerSettings INHERIT = builder().build();

	private final @Nullable String id;

	private final @Nullable Integer concurrency;

	private final @Nullable Duration lease;

	private final @Nullable Integer maxAttempts;

	private final @Nullable Duration backoffInitial;

	private final @Nullable Double backoffMultiplier;

	private final @Nullable Duration backoffMax;

	private final @Nullable Double backoffJitter;

	private final @Nullable Boolean autoStartup;

	private final @Nullable List<Class<? extends Throwable>> retryFor;

	private final @Nullable List<Class<? extends Throwable>> noRetryFor;

	private final @Nullable Duration timeout;

	private ListenerSettings(Builder builder) {
		this.id = builder.id;
		this.concurrency = builder.concurrency;
		this.lease = builder.lease;
		this.maxAttempts = builder.maxAttempts;
		this.backoffInitial = builder.backoffInitial;
		this.backoffMultiplier = builder.backoffMultiplier;
		this.backoffMax = builder.backoffMax;
		this.backoffJitter = builder.backoffJitter;
		this.autoStartup = builder.autoStartup;
		this.retryFor = builder.retryFor;
		this.noRetryFor = builder.noRetryFor;
		this.timeout = builder.timeout;
	}

	/**
	 * Return settings that inherit everything.
	 * @return the settings
	 */
	public static ListenerSettings inherit() {
		return INHERIT;
	}

	/**
	 * Start building settings.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the listener id, or {@code null} to use the queue name.
	 * @return the id
	 */
	public @Nullable String getId() {
		return this.id;
	}

	/**
	 * Return how many handlers run at once.
	 * @return the concurrency, or {@code null} to inherit
	 */
	public @Nullable Integer getConcurrency() {
		return this.concurrency;
	}

	/**
	 * Return the lease.
	 * @return the lease, or {@code null} to inherit
	 */
	public @Nullable Duration getLease() {
		return this.lease;
	}

	/**
	 * Return the listener's cap on attempts: a failure of attempt {@code maxAttempts} or
	 * later dead-letters the job even if its row allows more. Never inherited from
	 * properties, which only set the producer's default.
	 * @return the cap, or {@code null} for none (the row's budget applies)
	 */
	public @Nullable Integer getMaxAttempts() {
		return this.maxAttempts;
	}

	/**
	 * Return the first backoff.
	 * @return the backoff, or {@code null} to inherit
	 */
	public @Nullable Duration getBackoffInitial() {
		return this.backoffInitial;
	}

	/**
	 * Return the backoff multiplier.
	 * @return the multiplier, or {@code null} to inherit
	 */
	public @Nullable Double getBackoffMultiplier() {
		return this.backoffMultiplier;
	}

	/**
	 * Return the longest backoff.
	 * @return the cap, or {@code null} to inherit
	 */
	public @Nullable Duration getBackoffMax() {
		return this.backoffMax;
	}

	/**
	 * Return the backoff jitter.
	 * @return the jitter fraction, or {@code null} to inherit
	 */
	public @Nullable Double getBackoffJitter() {
		return this.backoffJitter;
	}

	/**
	 * Return whether the listener starts with the registry.
	 * @return the flag, or {@code null} to inherit
	 */
	public @Nullable Boolean getAutoStartup() {
		return this.autoStartup;
	}

	/**
	 * Return the only exceptions a failed attempt is retried for; any other dead-letters
	 * the job at once. Matched against the whole cause chain.
	 * @return the exception types, or {@code null} to inherit (an empty list: retry for
	 * every exception not in {@link #getNoRetryFor()})
	 */
	public @Nullable List<Class<? extends Throwable>> getRetryFor() {
		return this.retryFor;
	}

	/**
	 * Return the exceptions that dead-letter the job at once instead of being retried.
	 * Matched against the whole cause chain.
	 * @return the exception types, or {@code null} to inherit
	 */
	public @Nullable List<Class<? extends Throwable>> getNoRetryFor() {
		return this.noRetryFor;
	}

	/**
	 * Return how long a handler may run before its thread is interrupted and the attempt
	 * counts as failed.
	 * @return the timeout, or {@code null} to inherit
	 */
	public @Nullable Duration getTimeout() {
		return this.timeout;
	}

	/**
	 * Builds {@link ListenerSettings}.
	 *
	 * @author EchoMQ
	 * @since 0.1.0
	 */
	public static final class Builder {

		private @Nullable String id;

		private @Nullable Integer concurrency;

		private @Nullable Duration lease;

		private @Nullable Integer maxAttempts;

		private @Nullable Duration backoffInitial;

		private @Nullable Double backoffMultiplier;

		private @Nullable Duration backoffMax;

		private @Nullable Double backoffJitter;

		private @Nullable Boolean autoStartup;

		private @Nullable List<Class<? extends Throwable>> retryFor;

		private @Nullable List<Class<? extends Throwable>> noRetryFor;

		private @Nullable Duration timeout;

		private Builder() {
		}

		/**
		 * Set how long a handler may run before it is interrupted and the attempt fails.
		 * @param timeout the timeout, or {@code null} to inherit
		 * @return this builder
		 */
		public Builder timeout(@Nullable Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Set the only exceptions a failed attempt is retried for.
		 * @param retryFor the exception types, or {@code null} to inherit
		 * @return this builder
		 */
		public Builder retryFor(@Nullable List<Class<? extends Throwable>> retryFor) {
			this.retryFor = (retryFor != null) ? List.copyOf(retryFor) : null;
			return this;
		}

		/**
		 * Set the exceptions that dead-letter the job at once.
		 * @param noRetryFor the exception types, or {@code null} to inherit
		 * @return this builder
		 */
		public Builder noRetryFor(@Nullable List<Class<? extends Throwable>> noRetryFor) {
			this.noRetryFor = (noRetryFor != null) ? List.copyOf(noRetryFor) : null;
			return this;
		}

		/**
		 * Set the listener id.
		 * @param id the id
		 * @return this builder
		 */
		public Builder id(@Nullable String id) {
			this.id = id;
			return this;
		}

		/**
		 * Set how many handlers run at once.
		 * @param concurrency the concurrency
		 * @return this builder
		 */
		public Builder concurrency(@Nullable Integer concurrency) {
			this.concurrency = concurrency;
			return this;
		}

		/**
		 * Set the lease.
		 * @param lease the lease
		 * @return this builder
		 */
		public Builder lease(@Nullable Duration lease) {
			this.lease = lease;
			return this;
		}

		/**
		 * Set the listener's cap on attempts.
		 * @param maxAttempts the cap
		 * @return this builder
		 */
		public Builder maxAttempts(@Nullable Integer maxAttempts) {
			this.maxAttempts = maxAttempts;
			return this;
		}

		/**
		 * Set the first backoff.
		 * @param initial the backoff
		 * @return this builder
		 */
		public Builder backoffInitial(@Nullable Duration initial) {
			this.backoffInitial = initial;
			return this;
		}

		/**
		 * Set the backoff multiplier.
		 * @param multiplier the multiplier
		 * @return this builder
		 */
		public Builder backoffMultiplier(@Nullable Double multiplier) {
			this.backoffMultiplier = multiplier;
			return this;
		}

		/**
		 * Set the longest backoff.
		 * @param max the cap
		 * @return this builder
		 */
		public Builder backoffMax(@Nullable Duration max) {
			this.backoffMax = max;
			return this;
		}

		/**
		 * Set the backoff jitter.
		 * @param jitter the fraction, 0 to 1
		 * @return this builder
		 */
		public Builder backoffJitter(@Nullable Double jitter) {
			this.backoffJitter = jitter;
			return this;
		}

		/**
		 * Set whether the listener starts with the registry.
		 * @param autoStartup the flag
		 * @return this builder
		 */
		public Builder autoStartup(@Nullable Boolean autoStartup) {
			this.autoStartup = autoStartup;
			return this;
		}

		/**
		 * Build the settings.
		 * @return the settings
		 */
		public ListenerSettings build() {
			return new ListenerSettings(this);
		}

	}

}
