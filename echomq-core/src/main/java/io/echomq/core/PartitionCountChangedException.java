package io.echomq.core;

/**
 * Thrown at start-up when a queue's configured partition count differs from the count its
 * jobs were written with.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class PartitionCountChangedException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message the detail message, naming the queue and both counts
	 */
	public PartitionCountChangedException(String message) {
		super(message);
	}

}
