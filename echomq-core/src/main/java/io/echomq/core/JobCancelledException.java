package io.echomq.core;

/**
 * Thrown by an await (or completes its future exceptionally) when the awaited job was
 * cancelled: it will never run again, and no result is stored.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class JobCancelledException extends AwaitException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 */
	public JobCancelledException(String queue, JobId id) {
		super("Job " + id + " on queue '" + queue + "' was cancelled", queue, id);
	}

}
