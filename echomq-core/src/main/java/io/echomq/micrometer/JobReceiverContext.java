package io.echomq.micrometer;

import io.echomq.listener.ReceivedJob;
import io.micrometer.observation.transport.ReceiverContext;

/**
 * The observation context of a listener running a job. Its carrier is the
 * {@link ReceivedJob}, whose row fields ({@link ReceivedJob#fields()}) hold the trace
 * context the producer stored, such as {@code traceparent}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class JobReceiverContext extends ReceiverContext<ReceivedJob> {

	private final ReceivedJob job;

	private final String listenerId;

	/**
	 * Create a context.
	 * @param job the claimed job
	 * @param listenerId the id of the listener running it
	 */
	public JobReceiverContext(ReceivedJob job, String listenerId) {
		super((carrier, key) -> carrier.fields().get(key));
		setCarrier(job);
		setRemoteServiceName("echomq");
		this.job = job;
		this.listenerId = listenerId;
	}

	/**
	 * Return the job.
	 * @return the claimed job
	 */
	public ReceivedJob getJob() {
		return this.job;
	}

	/**
	 * Return the queue.
	 * @return the queue
	 */
	public String getQueue() {
		return this.job.queue();
	}

	/**
	 * Return the listener id.
	 * @return the id
	 */
	public String getListenerId() {
		return this.listenerId;
	}

}
