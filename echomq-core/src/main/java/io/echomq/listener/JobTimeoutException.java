package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.EchoMqException;

/**
 * The failure recorded for an attempt whose handler ran past its timeout: the handler
 * thread was interrupted, and the attempt is retried or dead-lettered like any failure
 * ({@code noRetryFor} may name this type).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class JobTimeoutException extends EchoMqException {

	private final Duration timeout;

	/**
	 * Create a new exception.
	 * @param timeout the timeout the handler ran past
	 * @param cause what the handler threw once interrupted, or {@code null} if it
	 * returned
	 */
	public JobTimeoutException(Duration timeout, Throwable cause) {
		super("Handler timed out after " + timeout, cause);
		this.timeout = timeout;
	}

	/**
	 * Create a new exception for a handler that returned after its timeout.
	 * @param timeout the timeout the handler ran past
	 */
	public JobTimeoutException(Duration timeout) {
		super("Handler timed out after " + timeout);
		this.timeout = timeout;
	}

	/**
	 * Return the timeout the handler ran past.
	 * @return the timeout
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

}
