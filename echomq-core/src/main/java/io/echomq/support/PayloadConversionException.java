package io.echomq.support;

import io.echomq.core.EchoMqException;

/**
 * Thrown when a payload cannot be written or read.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class PayloadConversionException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message the detail message
	 */
	public PayloadConversionException(String message) {
		super(message);
	}

	/**
	 * Create a new exception.
	 * @param message the detail message
	 * @param cause the cause
	 */
	public PayloadConversionException(String message, Throwable cause) {
		super(message, cause);
	}

}
