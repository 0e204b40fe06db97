package io.echomq.micrometer;

import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;
import io.micrometer.observation.transport.SenderContext;

/**
 * The observation context of the template enqueuing jobs. Its carrier is the mutable map
 * of row fields written with every job, so the propagator's fields (such as
 * {@code traceparent}) land on the job rows.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class JobSenderContext extends SenderContext<Map<String, String>> {

	private final String queue;

	private List<JobId> ids = List.of();

	/**
	 * Create a context.
	 * @param queue the queue
	 * @param fields the row fields, mutable; propagation fields are put into it
	 */
	public JobSenderContext(String queue, Map<String, String> fields) {
		super((carrier, key, value) -> {
			if (carrier != null) {
				carrier.put(key, value);
			}
		});
		setCarrier(fields);
		setRemoteServiceName("echomq");
		this.queue = queue;
	}

	/**
	 * Return the queue.
	 * @return the queue
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the ids written, empty until the write succeeded.
	 * @return the ids
	 */
	public List<JobId> getIds() {
		return this.ids;
	}

	/**
	 * Set the ids written.
	 * @param ids the ids
	 */
	public void setIds(List<JobId> ids) {
		this.ids = List.copyOf(ids);
	}

}
