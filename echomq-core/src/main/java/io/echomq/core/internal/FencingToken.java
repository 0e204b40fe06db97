package io.echomq.core.internal;

import org.springframework.util.Assert;

/**
 * The fencing token of one claim: the row's {@code attempts} counter right after the
 * claim. It counts every claim and never goes down, so a worker whose lease was lost (the
 * job was reaped, released or replayed, and claimed again) holds an older token and every
 * fenced transition it tries comes back stale.
 * <p>
 * A type of its own, not a {@code long}, so that it cannot be mixed up with the attempt
 * number a claim counts as against the budget (which is lower after a graceful release or
 * a replay).
 *
 * @param value the {@code attempts} value the claim wrote, at least 1
 * @author EchoMQ
 * @since 0.1.0
 */
public record FencingToken(long value) {

	/**
	 * Validate the token.
	 * @param value the {@code attempts} value
	 */
	public FencingToken {
		Assert.isTrue(value > 0, () -> "A fencing token must be positive, was " + value);
	}

	/**
	 * Return the token for an {@code attempts} value.
	 * @param value the value
	 * @return the token
	 */
	public static FencingToken of(long value) {
		return new FencingToken(value);
	}

	/**
	 * Return the value as the scripts receive it.
	 * @return the decimal text of the value
	 */
	String argument() {
		return Long.toString(this.value);
	}

	@Override
	public String toString() {
		return "token " + this.value;
	}

}
