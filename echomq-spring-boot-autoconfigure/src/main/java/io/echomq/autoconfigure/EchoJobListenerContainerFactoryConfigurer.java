package io.echomq.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.FlowLimits;
import io.echomq.listener.BackoffPolicy;
import io.echomq.listener.ContainerDefaults;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.JobExecutorFactory;
import io.echomq.listener.JobInvocationInterceptor;
import io.echomq.listener.ListenerSettings;
import org.jspecify.annotations.Nullable;

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
		EchoMqProperties.Listener listener = this.properties.listener();
		factory.setDefaults(new ContainerDefaults(listener.concurrency(), listener.lease(), backoff(listener.backoff()),
				listener.autoStartup(), listener.idleWait(), this.properties.shutdown().timeout(), listener.retryFor(),
				listener.noRetryFor(), listener.timeout(), listener.claimAhead()));
		Map<String, ListenerSettings> queueSettings = new LinkedHashMap<>();
		this.properties.queues().forEach((queue, overrides) -> queueSettings.put(queue, settings(overrides)));
		factory.setQueueSettings(queueSettings);
		Map<String, FlowLimits> queueLimits = new LinkedHashMap<>();
		this.properties.queues().forEach((queue, overrides) -> queueLimits.put(queue, limits(overrides)));
		factory.setQueueLimits(queueLimits);
		factory.setExecutorFactory(this.executorFactory);
		factory.setEventListeners(this.eventListeners);
		factory.setInvocationInterceptors(this.invocationInterceptors);
	}

	static BackoffPolicy backoff(EchoMqProperties.Backoff backoff) {
		return new BackoffPolicy(backoff.initial(), backoff.multiplier(), backoff.max(), backoff.jitter());
	}

	static FlowLimits limits(EchoMqQueueProperties overrides) {
		EchoMqQueueProperties.Lanes lanes = overrides.lanes();
		return new FlowLimits(overrides.maxActive(), rate(overrides.rateLimit()),
				(lanes != null) ? lanes.maxActive() : null, (lanes != null) ? rate(lanes.rateLimit()) : null);
	}

	private static FlowLimits.@Nullable RateLimit rate(EchoMqQueueProperties.@Nullable RateLimit rate) {
		return (rate != null) ? new FlowLimits.RateLimit(rate.limit(), rate.period()) : null;
	}

	private static ListenerSettings settings(EchoMqQueueProperties overrides) {
		ListenerSettings.Builder builder = ListenerSettings.builder()
			.concurrency(overrides.concurrency())
			.lease(overrides.lease())
			.autoStartup(overrides.autoStartup())
			.retryFor(overrides.retryFor())
			.noRetryFor(overrides.noRetryFor())
			.timeout(overrides.timeout());
		EchoMqQueueProperties.BackoffOverrides backoff = overrides.backoff();
		if (backoff != null) {
			builder.backoffInitial(backoff.initial())
				.backoffMultiplier(backoff.multiplier())
				.backoffMax(backoff.max())
				.backoffJitter(backoff.jitter());
		}
		return builder.build();
	}

	/**
	 * Return the executor factory applied.
	 * @return the executor factory
	 */
	public JobExecutorFactory getExecutorFactory() {
		return this.executorFactory;
	}

}
