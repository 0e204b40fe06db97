package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.util.Assert;

/**
 * Exponential retry backoff: {@code initial * multiplier^(attempt-1)}, capped at
 * {@code max}, then spread by up to {@code ±jitter} of itself (never above {@code max}).
 *
 * @param initial the backoff after the first failed attempt
 * @param multiplier the growth factor per further attempt, at least 1
 * @param max the longest backoff
 * @param jitter the fraction randomly added or removed, 0 to 1
 * @author EchoMQ
 * @since 0.1.0
 */
public record BackoffPolicy(Duration initial, double multiplier, Duration max, double jitter) {

	/**
	 * Validate the policy.
	 * @param initial the first backoff
	 * @param multiplier the growth factor
	 * @param max the cap
	 * @param jitter the spread
	 */
	public BackoffPolicy {
		Assert.isTrue(initial != null && !initial.isNegative(), () -> "initial must not be negative, was " + initial);
		Assert.isTrue(max != null && !max.isNegative(), () -> "max must not be negative, was " + max);
		Assert.isTrue(multiplier >= 1.0, () -> "multiplier must be at least 1.0, was " + multiplier);
		Assert.isTrue(jitter >= 0.0 && jitter <= 1.0, () -> "jitter must be between 0 and 1, was " + jitter);
	}

	/**
	 * Return the built-in policy: 1 s, doubling, at most 5 min, 20% jitter.
	 * @return the default policy
	 */
	public static BackoffPolicy defaults() {
		return new BackoffPolicy(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5), 0.2);
	}

	/**
	 * Return the backoff before the attempt after {@code attempt}.
	 * @param attempt the attempt that failed, from 1
	 * @return the backoff, between zero and {@code max}
	 */
	public Duration delayFor(long attempt) {
		double maxMillis = this.max.toMillis();
		double base = this.initial.toMillis() * Math.pow(this.multiplier, Math.max(0, attempt - 1));
		double capped = Math.min(maxMillis, base);
		if (this.jitter > 0) {
			double spread = capped * this.jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
			capped = Math.min(maxMillis, capped + spread);
		}
		return Duration.ofMillis(Math.max(0, Math.round(capped)));
	}

}
