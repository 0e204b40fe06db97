package io.echomq.core;

/**
 * Base of what an await throws (or completes its future exceptionally with) when the
 * awaited job gives no result: it failed, was cancelled, is gone, or the wait ran out.
 * Catch it to handle every such outcome in one place.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public abstract class AwaitException extends EchoMqException {

	private final String queue;

	private final JobId id;

	/**
	 * Create a new exception.
	 * @param message the message
	 * @param queue the queue of the awaited job
	 * @param id the awaited job
	 */
	protected AwaitException(String message, String queue, JobId id) {
		super(message);
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
