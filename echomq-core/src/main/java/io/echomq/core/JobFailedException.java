package io.echomq.core;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by an await (or completes its future exceptionally) when the awaited job was
 * dead-lettered: its attempts ran out, or it failed for good. Carries the last error the
 * dead row keeps.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class JobFailedException extends AwaitException {

	private final @Nullable String lastError;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 * @param lastError the last error kept on the dead row, or {@code null} when none was
	 * readable
	 */
	public JobFailedException(String queue, JobId id, @Nullable String lastError) {
		super("Job " + id + " on queue '" + queue + "' was dead-lettered"
				+ ((lastError != null) ? ": " + lastError : ""), queue, id);
		this.lastError = lastError;
	}

	/**
	 * Return the last error the dead row keeps.
	 * @return the error text, or {@code null}
	 */
	public @Nullable String getLastError() {
		return this.lastError;
	}

}
