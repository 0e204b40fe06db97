package io.echomq.schedule;

import io.echomq.core.EchoMqException;

/**
 * Thrown for a schedule that cannot be used: an invalid cron expression, an unknown time
 * zone, a non-positive interval, a bad name or queue. Nothing is written.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class InvalidScheduleException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message what was wrong
	 */
	public InvalidScheduleException(String message) {
		super(message);
	}

	/**
	 * Create a new exception with a cause.
	 * @param message what was wrong
	 * @param cause the parser's error
	 */
	public InvalidScheduleException(String message, Throwable cause) {
		super(message, cause);
	}

}
