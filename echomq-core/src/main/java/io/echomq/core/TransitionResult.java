package io.echomq.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The result of a fenced transition: either applied, naming the state the job is now
 * in, or stale, naming why nothing changed.
 *
 * @param outcome whether the transition applied
 * @param state the state the job moved to, {@code null} if it was retired (done) or
 * the result is stale
 * @param at the time attached to the move (run-at, lease deadline or time of death),
 * or {@code null}
 * @param reason why the transition was stale, {@code null} when applied
 * @author EchoMQ
 * @since 0.1.0
 */
public record TransitionResult(Outcome outcome, @Nullable JobState state, @Nullable Instant at,
		@Nullable String reason) {

	/**
	 * Create an applied result.
	 * @param state the new state, or {@code null} when the row was retired
	 * @param at the time attached to the move, or {@code null}
	 * @return the result
	 */
	public static TransitionResult applied(@Nullable JobState state, @Nullable Instant at) {
		return new TransitionResult(Outcome.APPLIED, state, at, null);
	}

	/**
	 * Create a stale result.
	 * @param reason why the caller's token or location no longer matched
	 * @return the result
	 */
	public static TransitionResult stale(String reason) {
		return new TransitionResult(Outcome.STALE, null, null, reason);
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
	 * Whether a transition applied.
	 */
	public enum Outcome {

		/** The move happened, in full. */
		APPLIED,

		/** The caller's lease was lost (token or location mismatch); nothing changed. */
		STALE

	}

}
