package io.echomq.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

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

	private final List<JobRef> written;

	private final @Nullable JobRef batch;

	private final int countedNotWritten;

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
	 * Create a new exception for a flow or batch written in part, whose jobs span queues.
	 * @param queue the queue of the flow's root or the batch's home queue
	 * @param total how many jobs (and batch rows) the write held
	 * @param written the jobs written, with their queues, in the order they were written
	 * @param batch the batch the write opened and did not seal, or {@code null}
	 * @param countedNotWritten how many jobs the batch counted that were not written
	 * @param unknown the ids whose call got no answer
	 * @param cause the first failure
	 */
	public PartialEnqueueException(String queue, int total, List<JobRef> written, @Nullable JobRef batch,
			int countedNotWritten, List<JobId> unknown, Throwable cause) {
		super(message(queue, total, written.size(), unknown.size(), cause) + "; written: " + written
				+ ((batch != null) ? ", batch " + batch + " left open" : "")
				+ " (EchoMqAdmin.discard(exception) removes them)", cause);
		this.enqueued = written.stream().map(JobRef::id).toList();
		this.unknown = List.copyOf(unknown);
		this.written = List.copyOf(written);
		this.batch = batch;
		this.countedNotWritten = countedNotWritten;
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
		this.written = List.of();
		this.batch = null;
		this.countedNotWritten = 0;
	}

	/**
	 * Return the ids of the jobs that were written, in payload order.
	 * @return the enqueued ids
	 */
	public List<JobId> getEnqueued() {
		return this.enqueued;
	}

	/**
	 * Return the jobs of a flow or batch that were written, with their queues, in the
	 * order they were written (parents and callbacks before their children); empty for a
	 * plain enqueue, whose jobs are all on {@code getEnqueued()}'s one queue.
	 * @return the jobs written
	 */
	public List<JobRef> getWrittenJobs() {
		return this.written;
	}

	/**
	 * Return the batch this write opened and left unsealed, which
	 * {@code EchoMqAdmin.discard} seals once its jobs are cancelled.
	 * @return the batch, or {@code null}
	 */
	public @Nullable JobRef getOpenBatch() {
		return this.batch;
	}

	/**
	 * Return how many jobs the open batch counted that were never written (counted before
	 * their write, which then failed): {@code EchoMqAdmin.discard} takes them back so
	 * that the batch can finish.
	 * @return the count, usually 0
	 */
	public int getCountedNotWritten() {
		return this.countedNotWritten;
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
