package io.echomq;

import java.time.Duration;
import java.time.Instant;

import io.echomq.core.EnqueueSpec;
import org.jspecify.annotations.Nullable;

/**
 * Options for one enqueue: delay or run-at, priority and attempt budget. Immutable;
 * each {@code with*} method returns a copy.
 *
 * @param delay how long after enqueue the job becomes claimable, {@code null} for none;
 * at most {@link EnqueueSpec#MAX_DELAY}
 * @param runAt an absolute run-at (wins over {@code delay}), {@code null} for none; from
 * the epoch to {@link EnqueueSpec#LATEST_RUN_AT}
 * @param priority higher runs sooner; 0 keeps enqueue order
 * @param maxAttempts the attempt budget, {@code null} to use the queue's configured
 * default
 * @param afterCommit whether an enqueue inside a transaction waits for its commit,
 * {@code null} for the template's default
 * @author EchoMQ
 * @since 0.1.0
 */
public record EnqueueOptions(@Nullable Duration delay, @Nullable Instant runAt, int priority,
		@Nullable Integer maxAttempts, @Nullable Boolean afterCommit) {

	private static final EnqueueOptions DEFAULTS = new EnqueueOptions(null, null, 0, null, null);

	/**
	 * Validate the options.
	 * @param delay the delay
	 * @param runAt the run-at
	 * @param priority the priority
	 * @param maxAttempts the attempt budget
	 * @param afterCommit whether to wait for the transaction's commit
	 */
	public EnqueueOptions {
		if (delay != null) {
			EnqueueSpec.checkDelay(delay);
		}
		EnqueueSpec.checkRunAt(runAt);
		if (maxAttempts != null && maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
		}
	}

	/**
	 * Return the default options: run now, priority 0, the queue's attempt budget.
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
	 * Return a copy with a delay.
	 * @param delay the delay
	 * @return the copy
	 */
	public EnqueueOptions withDelay(Duration delay) {
		return new EnqueueOptions(delay, this.runAt, this.priority, this.maxAttempts, this.afterCommit);
	}

	/**
	 * Return a copy with an absolute run-at.
	 * @param runAt the run-at
	 * @return the copy
	 */
	public EnqueueOptions withRunAt(Instant runAt) {
		return new EnqueueOptions(this.delay, runAt, this.priority, this.maxAttempts, this.afterCommit);
	}

	/**
	 * Return a copy with a priority.
	 * @param priority higher runs sooner
	 * @return the copy
	 */
	public EnqueueOptions withPriority(int priority) {
		return new EnqueueOptions(this.delay, this.runAt, priority, this.maxAttempts, this.afterCommit);
	}

	/**
	 * Return a copy with an attempt budget.
	 * @param maxAttempts the attempts before dead-lettering
	 * @return the copy
	 */
	public EnqueueOptions withMaxAttempts(int maxAttempts) {
		return new EnqueueOptions(this.delay, this.runAt, this.priority, maxAttempts, this.afterCommit);
	}

	/**
	 * Return a copy that says whether an enqueue inside a Spring-managed transaction
	 * waits for the commit (and is dropped on rollback), whatever the template's default.
	 * @param afterCommit {@code true} to wait for the commit, {@code false} to write at
	 * once
	 * @return the copy
	 */
	public EnqueueOptions withAfterCommit(boolean afterCommit) {
		return new EnqueueOptions(this.delay, this.runAt, this.priority, this.maxAttempts, afterCommit);
	}

}
