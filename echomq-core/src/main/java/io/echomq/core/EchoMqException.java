package io.echomq.core;

/**
 * Root of the exceptions EchoMQ throws itself: bad input it rejected before any write
 * ({@link InvalidJobIdException}, {@link InvalidQueueNameException}, a payload too large
 * or unreadable), transitions the server refused ({@link ServerOutOfMemoryException}) and
 * batch enqueues written only in part ({@link PartialEnqueueException}). Argument checks
 * on method parameters (a negative delay, a zero lease) throw
 * {@link IllegalArgumentException} as Spring's {@code Assert} does.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqException extends RuntimeException {

	/**
	 * Create a new exception.
	 * @param message the message
	 */
	public EchoMqException(String message) {
		super(message);
	}

	/**
	 * Create a new exception with a cause.
	 * @param message the message
	 * @param cause the cause
	 */
	public EchoMqException(String message, Throwable cause) {
		super(message, cause);
	}

}
