package io.echomq.core;

import java.util.List;

/**
 * Thrown when a batch enqueue was written only in part: it is sent as several script
 * calls of up to {@value io.echomq.core.internal.Engine#ENQUEUE_CHUNK} jobs, each
 * all-or-nothing, and some of them applied while another failed (for example refused by a
 * full server). The jobs in {@link #getEnqueued()} are in the queue and will be handled;
 * the others were not written, except those in {@link #getUnknown()}, whose call got no
 * answer. The cause is the first failure. A call of which no part answered throws the
 * subclass {@link EnqueueOutcomeUnknownException}: nothing is known to be enqueued, and
 * the jobs' fate is to be looked up by id.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class PartialEnqueueException extends EchoMqException {

	private final List<JobId> enqueued;

	private final List<JobId> unknown;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param total how many jobs the batch held
	 * @param enqueued the ids that were written
	 * @param unknown the ids whose call got no answer
	 * @param cause the first failure
	 */
	public PartialEnqueueException(String queue, int total, List<JobId> enqueued, List<JobId> unknown,
			Throwable cause) {
		this(message(queue, total, enqueued.size(), unknown.size(), cause), enqueued, unknown, cause);
	}

	/**
	 * Create a new exception with its own message, for a subclass.
	 * @param message the message
	 * @param enqueued the ids that were written
	 * @param unknown the ids whose call got no answer
	 * @param cause the first failure
	 */
	protected PartialEnqueueException(String message, List<JobId> enqueued, List<JobId> unknown, Throwable cause) {
		super(message, cause);
		this.enqueued = List.copyOf(enqueued);
		this.unknown = List.copyOf(unknown);
	}

	/**
	 * Return the ids of the jobs that were written, in payload order.
	 * @return the enqueued ids
	 */
	public List<JobId> getEnqueued() {
		return this.enqueued;
	}

	/**
	 * Return the ids of the jobs whose script call got no answer (a timeout or a lost
	 * connection): they may or may not have been written.
	 * @return the ids in doubt, usually none
	 */
	public List<JobId> getUnknown() {
		return this.unknown;
	}

	private static String message(String queue, int total, int enqueued, int unknown, Throwable cause) {
		StringBuilder message = new StringBuilder("Enqueue to queue '").append(queue)
			.append("' was written only in part: ")
			.append(enqueued)
			.append(" of ")
			.append(total)
			.append(" jobs were enqueued (getEnqueued()), ")
			.append(total - enqueued - unknown)
			.append(" were not");
		if (unknown > 0) {
			message.append(", and for ").append(unknown).append(" the server did not answer (getUnknown())");
		}
		return message.append("; first failure: ").append(cause.getMessage()).toString();
	}

}
