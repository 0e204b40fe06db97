package io.echomq.core;

import java.util.List;

/**
 * Thrown when an enqueue got no answer at all (a command timeout, a connection closed
 * with the call in flight): none of its jobs is known to be enqueued and none is known
 * not to be. The ids were minted before the call, so each job can be looked up: with
 * {@link io.echomq.inspect.QueueInspector#job(String, JobId)} (a row: it was enqueued),
 * or by awaiting it ({@link io.echomq.EchoMqOperations#resultOf}, which ends with
 * {@link JobNotFoundException} when it was not). A call that got no answer may still
 * apply a moment later (the server may have it queued), so look once the server answers
 * again, and enqueue with a unique key to retry without risking a second job.
 * <p>
 * A {@link PartialEnqueueException} with nothing {@linkplain #getEnqueued() enqueued} and
 * every id {@linkplain #getUnknown() unknown}, so code that catches that keeps working.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public class EnqueueOutcomeUnknownException extends PartialEnqueueException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param unknown the ids of the jobs whose fate is unknown, all of the call's
	 * @param cause why no answer came
	 */
	public EnqueueOutcomeUnknownException(String queue, List<JobId> unknown, Throwable cause) {
		super(message(queue, unknown, cause), List.of(), unknown, cause);
	}

	private static String message(String queue, List<JobId> unknown, Throwable cause) {
		String jobs = (unknown.size() == 1)
				? "job " + unknown.get(0) + " to queue '" + queue + "' got no answer, so "
						+ "whether it was enqueued is unknown"
				: unknown.size() + " jobs to queue '" + queue + "' got no answer, so whether they were enqueued "
						+ "is unknown (getUnknown())";
		return "Enqueue of " + jobs + ": the call may have applied or may still apply. Look "
				+ ((unknown.size() == 1) ? "it" : "each") + " up by id once the server answers "
				+ "(QueueInspector.job(queue, id): a row means enqueued; or await it with resultOf, "
				+ "JobNotFoundException means it was not), and enqueue with a unique key to retry without "
				+ "risking a second job; cause: " + cause.getMessage();
	}

}
