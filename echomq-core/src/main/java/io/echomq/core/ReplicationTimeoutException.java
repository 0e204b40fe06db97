package io.echomq.core;

import java.time.Duration;
import java.util.List;

/**
 * Thrown by an enqueue to a queue with a {@link Durability} when fewer replicas than it
 * asks for acknowledged the write within its timeout. The jobs <em>are</em> written on
 * the primary and will run; they are not confirmed to survive a failover of the primary
 * until a replica has them. Enqueueing them again would make new jobs, so a caller that
 * retries should use a unique key, or treat this as a warning.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class ReplicationTimeoutException extends EchoMqException {

	private final String queue;

	private final List<JobId> jobIds;

	private final long acknowledged;

	private final int required;

	private final Duration timeout;

	/**
	 * Create a new exception.
	 * @param queue the queue the jobs were enqueued to
	 * @param jobIds the jobs written on the primary and not confirmed
	 * @param acknowledged the replicas that acknowledged them in time
	 * @param required the replicas the queue's durability asks for
	 * @param timeout how long the enqueue waited
	 */
	public ReplicationTimeoutException(String queue, List<JobId> jobIds, long acknowledged, int required,
			Duration timeout) {
		super(message(queue, jobIds, acknowledged, required, timeout));
		this.queue = queue;
		this.jobIds = List.copyOf(jobIds);
		this.acknowledged = acknowledged;
		this.required = required;
		this.timeout = timeout;
	}

	private static String message(String queue, List<JobId> jobIds, long acknowledged, int required, Duration timeout) {
		String jobs = (jobIds.size() == 1) ? "Job " + jobIds.get(0) : jobIds.size() + " jobs";
		return jobs + " enqueued to queue '" + queue + "' " + ((jobIds.size() == 1) ? "is" : "are")
				+ " on the primary, but only " + acknowledged + " of " + required
				+ " replicas acknowledged the write within " + timeout.toMillis()
				+ " ms: a failover of the primary before it replicates would lose "
				+ ((jobIds.size() == 1) ? "it" : "them");
	}

	/**
	 * Return the queue the jobs were enqueued to.
	 * @return the logical queue name
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the jobs written on the primary and not confirmed by enough replicas.
	 * @return their ids, in enqueue order
	 */
	public List<JobId> getJobIds() {
		return this.jobIds;
	}

	/**
	 * Return how many replicas acknowledged the write within the timeout.
	 * @return the replicas that did, fewer than {@link #getRequired()}
	 */
	public long getAcknowledged() {
		return this.acknowledged;
	}

	/**
	 * Return how many replicas the queue's durability asks for.
	 * @return the required replicas
	 */
	public int getRequired() {
		return this.required;
	}

	/**
	 * Return how long the enqueue waited.
	 * @return the queue's durability timeout
	 */
	public Duration getTimeout() {
		return this.timeout;
	}

}
