package io.echomq.core;

import java.util.List;

/**
 * Thrown to the caller of a transaction's commit when an enqueue that waited for the
 * commit could not be written. The transaction is committed; these jobs do not exist. The
 * first failure is the cause; others that failed at the same commit are suppressed.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EnqueueAfterCommitException extends EchoMqException {

	private final String queue;

	private final List<JobId> ids;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param ids the ids the enqueue returned, which were not written
	 * @param cause why the write failed
	 */
	public EnqueueAfterCommitException(String queue, List<JobId> ids, Throwable cause) {
		super("Transaction committed, but " + ids.size() + " job(s) enqueued to queue '" + queue
				+ "' during it could not be written (" + cause.getMessage() + "): " + ids, cause);
		this.queue = queue;
		this.ids = List.copyOf(ids);
	}

	/**
	 * Return the queue.
	 * @return the queue
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the ids the enqueue returned, which were not written.
	 * @return the ids
	 */
	public List<JobId> getIds() {
		return this.ids;
	}

}
