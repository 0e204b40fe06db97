package io.echomq.core;

/**
 * Thrown when a job id or index names a partition the queue does not have. Nothing was
 * written.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class InvalidPartitionException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message the detail message, naming the queue and the partition
	 */
	public InvalidPartitionException(String message) {
		super(message);
	}

}
