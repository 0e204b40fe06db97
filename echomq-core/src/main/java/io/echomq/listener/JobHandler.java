package io.echomq.listener;

/**
 * Handles one claimed job. Returning normally completes the job; throwing anything (an
 * {@link Error} included) fails the attempt, which is retried with backoff or
 * dead-lettered once the attempts are used up. An {@link UnreadablePayloadException}
 * dead-letters the job at once.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@FunctionalInterface
public interface JobHandler {

	/**
	 * Handle a job.
	 * @param job the claimed job, its payload still in text form, already decrypted on an
	 * encrypted queue (without the claim's fencing token, which the container alone uses)
	 * @param context the job's context
	 * @throws Exception if the attempt failed
	 */
	void handle(ReceivedJob job, JobContext context) throws Exception;

}
