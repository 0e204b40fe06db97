package io.echomq.core;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * How much of a queue's history a location keeps: at most {@code count} jobs and none
 * older than {@code age}, a bound of zero meaning no bound of that kind. A job over
 * either bound is trimmed with its row, a bounded number per script call.
 * <p>
 * {@link #NONE} keeps nothing: completed rows are retired at once (the default for the
 * completed location). Dead jobs are kept within {@link #DEAD_DEFAULT} unless configured
 * otherwise.
 *
 * @param count most jobs kept, {@code 0} for no count bound
 * @param age most age of a kept job (from the time it got there), {@link Duration#ZERO}
 * for no age bound
 * @author EchoMQ
 * @since 0.1.0
 */
public record Retention(long count, Duration age) {

	/** Keep nothing: a completed job's row is retired in the complete script itself. */
	public static final Retention NONE = new Retention(0, Duration.ZERO);

	/** The bounds of the dead location unless configured: 10,000 jobs, 7 days. */
	public static final Retention DEAD_DEFAULT = new Retention(10_000, Duration.ofDays(7));

	/** Largest count bound accepted. */
	public static final long MAX_COUNT = 100_000_000L;

	/**
	 * Create bounds, validating them.
	 * @param count most jobs kept, {@code 0} for no count bound
	 * @param age most age, {@link Duration#ZERO} for no age bound
	 * @throws IllegalArgumentException if the count is negative or above
	 * {@value #MAX_COUNT}, or the age is negative or not a whole number of ms above zero
	 */
	public Retention {
		Assert.notNull(age, "'age' must not be null");
		if (count < 0 || count > MAX_COUNT) {
			throw new IllegalArgumentException(
					"Retention count must be between 0 and " + MAX_COUNT + " (0: no count bound), was " + count);
		}
		if (age.isNegative() || (!age.isZero() && age.toMillis() < 1)) {
			throw new IllegalArgumentException("Retention age must be zero (no age bound) or at least 1ms, was " + age);
		}
	}

	/**
	 * Bounds of at most {@code count} jobs, of any age.
	 * @param count most jobs kept
	 * @return the bounds
	 */
	public static Retention ofCount(long count) {
		return new Retention(count, Duration.ZERO);
	}

	/**
	 * Bounds of jobs younger than {@code age}, however many.
	 * @param age most age
	 * @return the bounds
	 */
	public static Retention ofAge(Duration age) {
		return new Retention(0, age);
	}

	/**
	 * Return whether anything is kept.
	 * @return {@code true} when there is a count or an age bound
	 */
	public boolean isEnabled() {
		return this.count > 0 || !this.age.isZero();
	}

}
