package io.echomq.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The result of a fenced transition: either applied, naming the state the job is now in,
 * or stale, naming why nothing changed.
 *
 * @param outcome whether the transition applied
 * @param state the state the job moved to, {@code null} if it was retired (done) or the
 * result is stale
 * @param at the time attached to the move (run-at, lease deadline or time of death), or
 * {@code null}
 * @param reason why the transition was stale, {@code null} when applied
 * @param detail what the script saw (e.g. the token and attempts that did not match),
 * {@code null} when applied
 * @author EchoMQ
 * @since 0.1.0
 */
public record TransitionResult(Outcome outcome, @Nullable JobState state, @Nullable Instant at,
		@Nullable StaleReason reason, @Nullable String detail) {

	/**
	 * Create an applied result.
	 * @param state the new state, or {@code null} when the row was retired
	 * @param at the time attached to the move, or {@code null}
	 * @return the result
	 */
	public static TransitionResult applied(@Nullable JobState state, @Nullable Instant at) {
		return new TransitionResult(Outcome.APPLIED, state, at, null, null);
	}

	/**
	 * Create a stale result.
	 * @param reason why the caller's token or location no longer matched
	 * @param detail what the script saw
	 * @return the result
	 */
	public static TransitionResult stale(StaleReason reason, String detail) {
		return new TransitionResult(Outcome.STALE, null, null, reason, detail);
	}

	/**
	 * Return whether the transition applied.
	 * @return {@code true} if applied
	 */
	public boolean isApplied() {
		return this.outcome == Outcome.APPLIED;
	}

	/**
	 * Return whether the caller was fenced off and nothing changed.
	 * @return {@code true} if stale
	 */
	public boolean isStale() {
		return this.outcome == Outcome.STALE;
	}

	/**
	 * Return the reason and detail of a stale result, for logs.
	 * @return e.g. {@code TOKEN_MISMATCH (token 2 does not match attempts 3)}, or
	 * {@code APPLIED}
	 */
	public String describe() {
		return (this.reason != null) ? this.reason + " (" + this.detail + ")" : this.outcome.name();
	}

	/**
	 * Whether a transition applied.
	 */
	public enum Outcome {

		/** The move happened, in full. */
		APPLIED,

		/** The caller's lease was lost (token or location mismatch); nothing changed. */
		STALE

	}

}
