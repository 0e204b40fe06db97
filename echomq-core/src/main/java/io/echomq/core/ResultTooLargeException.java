package io.echomq.core;

/**
 * Thrown when a job's serialized result is larger than {@code echomq.results.max-size}:
 * the attempt fails with this as its reason (a result is never truncated), and nothing of
 * the result is written.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class ResultTooLargeException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 * @param size the serialized size in bytes
	 * @param limit the limit in bytes
	 */
	public ResultTooLargeException(String queue, JobId id, long size, long limit) {
		super("Result of job " + id + " on queue '" + queue + "' is " + size
				+ " bytes, larger than echomq.results.max-size (" + limit + " bytes); nothing was stored");
	}

}
