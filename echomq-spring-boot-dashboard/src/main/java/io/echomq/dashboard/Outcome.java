package io.echomq.dashboard;

import org.jspecify.annotations.Nullable;

/**
 * The outcome of an action.
 *
 * @param status what happened
 * @param message what happened, for people
 * @param count how many jobs it touched
 * @param result the engine's own answer, such as a cancel's {@code CANCELLED} or
 * {@code REQUESTED}, or {@code null}
 * @author EchoMQ
 * @since 0.1.0
 */
public record Outcome(Status status, String message, long count, @Nullable String result) {

	/**
	 * Create an outcome without an engine answer.
	 * @param status what happened
	 * @param message what happened, for people
	 * @param count how many jobs it touched
	 */
	public Outcome(Status status, String message, long count) {
		this(status, message, count, null);
	}

	static Outcome done(String message, long count) {
		return new Outcome(Status.DONE, message, count);
	}

	static Outcome done(String message, long count, String result) {
		return new Outcome(Status.DONE, message, count, result);
	}

	/**
	 * What happened.
	 */
	public enum Status {

		/** The action was taken. */
		DONE,

		/** The queue has no such job or listener. */
		NOT_FOUND,

		/** The job is not in a state the action applies to. */
		CONFLICT

	}

}
