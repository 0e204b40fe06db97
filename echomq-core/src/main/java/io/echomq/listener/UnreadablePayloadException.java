package io.echomq.listener;

import io.echomq.core.EchoMqException;

/**
 * Thrown when a job's payload cannot be converted to the handler's payload type. The job
 * is dead-lettered at once, with this exception's message as its last error: running it
 * again would fail the same way.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class UnreadablePayloadException extends EchoMqException {

	private static final long serialVersionUID = 1L;

	/**
	 * Create a new exception.
	 * @param message the detail message
	 * @param cause the conversion failure
	 */
	public UnreadablePayloadException(String message, Throwable cause) {
		super(message, cause);
	}

}
