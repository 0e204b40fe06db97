package io.echomq.core;

/**
 * Thrown when a queue name is not usable in the EchoMQ keyspace.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class InvalidQueueNameException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message the detail message, naming the queue
	 */
	public InvalidQueueNameException(String message) {
		super(message);
	}

}
