package io.echomq.listener;

import io.echomq.core.Experimental;
import io.echomq.core.Keyspace;

import org.springframework.util.Assert;

/**
 * A listener to register: the queue it consumes, the handler that runs each job, and what
 * it sets explicitly (the rest is inherited from the queue's settings and the container
 * factory's defaults). An {@code @EchoJob} method becomes one, and code registers one the
 * same way, with {@link EchoJobListenerRegistry#register(EchoJobListenerEndpoint)}:
 * <pre class="code">
 * registry.register(EchoJobListenerEndpoint.of("thumbnails", handler,
 *         ListenerSettings.builder().concurrency(8).build()));
 * </pre>
 *
 * @author EchoMQ
 * @since 0.4.0
 */
@Experimental
public final class EchoJobListenerEndpoint {

	private final String queue;

	private final JobHandler handler;

	private final ListenerSettings settings;

	private EchoJobListenerEndpoint(String queue, JobHandler handler, ListenerSettings settings) {
		this.queue = Keyspace.validateQueueName(queue);
		Assert.notNull(handler, "'handler' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		this.handler = handler;
		this.settings = settings;
	}

	/**
	 * Return an endpoint that inherits every setting.
	 * @param queue the queue
	 * @param handler the handler
	 * @return the endpoint
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 */
	public static EchoJobListenerEndpoint of(String queue, JobHandler handler) {
		return new EchoJobListenerEndpoint(queue, handler, ListenerSettings.inherit());
	}

	/**
	 * Return an endpoint with settings of its own.
	 * @param queue the queue
	 * @param handler the handler
	 * @param settings what the listener sets explicitly
	 * @return the endpoint
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 */
	public static EchoJobListenerEndpoint of(String queue, JobHandler handler, ListenerSettings settings) {
		return new EchoJobListenerEndpoint(queue, handler, settings);
	}

	/**
	 * Return the queue the listener consumes.
	 * @return the queue
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the handler that runs each job.
	 * @return the handler
	 */
	public JobHandler getHandler() {
		return this.handler;
	}

	/**
	 * Return what the listener sets explicitly.
	 * @return the settings
	 */
	public ListenerSettings getSettings() {
		return this.settings;
	}

	@Override
	public String toString() {
		return "EchoJobListenerEndpoint[queue=" + this.queue + ", handler=" + this.handler + "]";
	}

}
