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
public class JobNotFoundException extends EchoMqException {

	private final String queue;

	private final JobId id;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param id the job id
	 * @param detail what was found
	 */
	public JobNotFoundException(String queue, JobId id, String detail) {
		super("Job " + id + " on queue '" + queue + "' is gone with no result: " + detail);
		this.queue = queue;
		this.id = id;
	}

	/**
	 * Return the queue of the awaited job.
	 * @return the queue
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the awaited job.
	 * @return the job id
	 */
	public JobId getId() {
		return this.id;
	}

}
