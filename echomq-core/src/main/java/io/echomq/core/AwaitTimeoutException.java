package io.echomq.core;

import java.time.Duration;

/**
 * Thrown by an await (or completes its future exceptionally) when the awaited job did not
 * reach an outcome within the wait. The job is not affected: it may still complete, and
 * its result be read by id.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class AwaitTimeoutException extends AwaitException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 * @param timeout how long the caller waited
	 */
	public AwaitTimeoutException(String queue, JobId id, Duration timeout) {
		super("Job " + id + " on queue '" + queue + "' had no outcome within " + timeout, queue, id);
	}

}
