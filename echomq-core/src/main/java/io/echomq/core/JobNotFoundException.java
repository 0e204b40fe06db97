package io.echomq.core;

/**
 * Thrown by an await (or completes its future exceptionally) when the awaited job is gone
 * with no result to give: it was deleted, never enqueued (or not yet committed), or it
 * finished without a result before the wait began (a {@code void} handler's job on a
 * queue that retains no completed jobs) or its result expired.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class JobNotFoundException extends AwaitException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 * @param detail what was found
	 */
	public JobNotFoundException(String queue, JobId id, String detail) {
		super("Job " + id + " on queue '" + queue + "' is gone with no result: " + detail, queue, id);
	}

}
