package io.echomq.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a cancel did ({@link io.echomq.core.internal.QueueAdmin#cancel(String, JobId)}).
 *
 * @param outcome what happened
 * @param state the state the job was in when the cancel arrived, {@code null} when it was
 * not found
 * @param requestedAt for a running job, when the cancel was first asked for (server
 * time), else {@code null}
 * @param detail why a cancel was refused or found nothing, {@code null} otherwise
 * @author EchoMQ
 * @since 0.1.0
 */
public record CancelResult(Outcome outcome, @Nullable JobState state, @Nullable Instant requestedAt,
		@Nullable String detail) {

	/**
	 * Return whether the job is gone or will not complete: it was removed, or its running
	 * handler was asked to stop and its outcome will be discarded.
	 * @return {@code true} for {@link Outcome#CANCELLED} and {@link Outcome#REQUESTED}
	 */
	public boolean isCancelled() {
		return this.outcome == Outcome.CANCELLED || this.outcome == Outcome.REQUESTED;
	}

	/**
	 * What a cancel did.
	 */
	public enum Outcome {

		/**
		 * The job was pending, scheduled or dead: it left its location and its row was
		 * retired, in one move.
		 */
		CANCELLED,

		/**
		 * The job was active: its row is marked, the worker stops the handler at its next
		 * lease renewal, and the handler's outcome is discarded (the job is retired as
		 * cancelled when it leaves {@code active}). Asking again changes nothing.
		 */
		REQUESTED,

		/**
		 * No such job: it finished (completed or cancelled, its row retired) or never
		 * existed. Nothing was written.
		 */
		NOT_FOUND,

		/**
		 * The job cannot be cancelled as it is: quarantined, or its row is missing or
		 * malformed (the quarantine sweep's business). Nothing was written.
		 */
		REFUSED

	}

}
