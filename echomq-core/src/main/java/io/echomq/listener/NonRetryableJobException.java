package io.echomq.listener;

import io.echomq.core.EchoMqException;

/**
 * Thrown by a handler, or found anywhere in the cause chain of what it threw, to
 * dead-letter the job at once, whatever attempts it has left and whatever the listener's
 * {@code retryFor} says. The message is kept on the row as the job's last error.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class NonRetryableJobException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message why the job cannot succeed
	 */
	public NonRetryableJobException(String message) {
		super(message);
	}

	/**
	 * Create a new exception with a cause.
	 * @param message why the job cannot succeed
	 * @param cause the underlying failure
	 */
	public NonRetryableJobException(String message, Throwable cause) {
		super(message, cause);
	}

}
