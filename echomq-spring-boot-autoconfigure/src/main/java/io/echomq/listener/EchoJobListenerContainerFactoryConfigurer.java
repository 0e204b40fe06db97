package io.echomq.listener;

import java.util.List;

import io.echomq.config.EchoMqProperties;

import org.springframework.util.Assert;

/**
 * Applies {@code echomq.*} properties, the handler executor and the
 * {@link JobEventListener} beans to an {@link EchoJobListenerContainerFactory}; use it to
 * configure a factory of your own the way the auto-configured one is.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoJobListenerContainerFactoryConfigurer {

	private final EchoMqProperties properties;

	private final JobExecutorFactory executorFactory;

	private final List<JobEventListener> eventListeners;

	private final List<JobInvocationInterceptor> invocationInterceptors;

	/**
	 * Create a configurer.
	 * @param properties the properties
	 * @param executorFactory creates handler executors
	 * @param eventListeners the event listeners
	 */
	public EchoJobListenerContainerFactoryConfigurer(EchoMqProperties properties, JobExecutorFactory executorFactory,
			List<JobEventListener> eventListeners) {
		this(properties, executorFactory, eventListeners, List.of());
	}

	/**
	 * Create a configurer.
	 * @param properties the properties
	 * @param executorFactory creates handler executors
	 * @param eventListeners the event listeners
	 * @param invocationInterceptors the interceptors wrapped around every handler
	 * invocation
	 */
	public EchoJobListenerContainerFactoryConfigurer(EchoMqProperties properties, JobExecutorFactory executorFactory,
			List<JobEventListener> eventListeners, List<JobInvocationInterceptor> invocationInterceptors) {
		Assert.notNull(properties, "'properties' must not be null");
		Assert.notNull(executorFactory, "'executorFactory' must not be null");
		this.properties = properties;
		this.executorFactory = executorFactory;
		this.eventListeners = List.copyOf(eventListeners);
		this.invocationInterceptors = List.copyOf(invocationInterceptors);
	}

	/**
	 * Configure a factory.
	 * @param factory the factory
	 */
	public void configure(EchoJobListenerContainerFactory factory) {
		factory.setListenerDefaults(this.properties.listener());
		factory.setQueueOverrides(this.properties.queues());
		factory.setShutdownTimeout(this.properties.shutdown().timeout());
		factory.setExecutorFactory(this.executorFactory);
		factory.setEventListeners(this.eventListeners);
		factory.setInvocationInterceptors(this.invocationInterceptors);
	}

	/**
	 * Return the executor factory applied.
	 * @return the executor factory
	 */
	public JobExecutorFactory getExecutorFactory() {
		return this.executorFactory;
	}

}
