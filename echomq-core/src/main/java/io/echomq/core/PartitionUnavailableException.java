package io.echomq.core;

/**
 * Thrown when a job bound to one partition (by its partition key, lane or unique key, or
 * because its id was already handed out) cannot be written because the server of that
 * partition is unavailable. Jobs with no key fail over to another partition instead.
 * Whether the job was written is told by the cause: a refusal
 * ({@link io.echomq.core.internal.ServerFailures#isRefusal}) was not; a call that got no
 * reply may have been.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class PartitionUnavailableException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message the detail message, naming the queue and the partition
	 * @param cause the failure of the write
	 */
	public PartitionUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
