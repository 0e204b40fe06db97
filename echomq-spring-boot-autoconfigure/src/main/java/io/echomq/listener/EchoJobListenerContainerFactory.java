package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.config.EchoMqProperties;
import io.echomq.config.EchoMqProperties.QueueProperties;
import io.echomq.core.Jobs;
import io.echomq.core.Keyspace;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Creates {@link QueueListenerContainer containers}, resolving each listener's settings:
 * what the listener sets explicitly, else {@code echomq.queues.<queue>.*}, else
 * {@code echomq.listener.*}. Owns the lease keeper thread shared by its containers.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoJobListenerContainerFactory implements DisposableBean {

	private final Jobs jobs;

	private final LeaseKeeper leaseKeeper = new LeaseKeeper();

	private EchoMqProperties.Listener listenerDefaults = EchoMqProperties.defaults().listener();

	private Map<String, QueueProperties> queueOverrides = Map.of();

	private Duration shutdownTimeout = EchoMqProperties.defaults().shutdown().timeout();

	private JobExecutorFactory executorFactory = JobExecutorFactory.platformThreads();

	private JobEvents events = JobEvents.NONE;

	private List<JobInvocationInterceptor> invocationInterceptors = List.of();

	/**
	 * Create a factory on the engine.
	 * @param jobs the engine
	 */
	public EchoJobListenerContainerFactory(Jobs jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.jobs = jobs;
	}

	/**
	 * Set the defaults of every listener ({@code echomq.listener.*}).
	 * @param listenerDefaults the defaults
	 */
	public void setListenerDefaults(EchoMqProperties.Listener listenerDefaults) {
		Assert.notNull(listenerDefaults, "'listenerDefaults' must not be null");
		this.listenerDefaults = listenerDefaults;
	}

	/**
	 * Set the per-queue overrides ({@code echomq.queues.*}).
	 * @param queueOverrides the overrides by queue name
	 */
	public void setQueueOverrides(Map<String, QueueProperties> queueOverrides) {
		Assert.notNull(queueOverrides, "'queueOverrides' must not be null");
		this.queueOverrides = Map.copyOf(queueOverrides);
	}

	/**
	 * Set how long a stop waits for in-flight handlers before releasing their jobs.
	 * @param shutdownTimeout the drain timeout
	 */
	public void setShutdownTimeout(Duration shutdownTimeout) {
		Assert.isTrue(shutdownTimeout != null && !shutdownTimeout.isNegative(), "'shutdownTimeout' must not be negative");
		this.shutdownTimeout = shutdownTimeout;
	}

	/**
	 * Set what creates the handler executors.
	 * @param executorFactory the executor factory
	 */
	public void setExecutorFactory(JobExecutorFactory executorFactory) {
		Assert.notNull(executorFactory, "'executorFactory' must not be null");
		this.executorFactory = executorFactory;
	}

	/**
	 * Set the listeners told about what containers do.
	 * @param eventListeners the listeners, called in order
	 */
	public void setEventListeners(List<JobEventListener> eventListeners) {
		this.events = new JobEvents(eventListeners);
	}

	/**
	 * Set the interceptors wrapped around every handler invocation.
	 * @param invocationInterceptors the interceptors, the first outermost
	 */
	public void setInvocationInterceptors(List<JobInvocationInterceptor> invocationInterceptors) {
		Assert.notNull(invocationInterceptors, "'invocationInterceptors' must not be null");
		this.invocationInterceptors = List.copyOf(invocationInterceptors);
	}

	/**
	 * Return the engine.
	 * @return the jobs
	 */
	public Jobs getJobs() {
		return this.jobs;
	}

	/**
	 * Resolve the effective settings of a listener.
	 * @param queue the queue
	 * @param settings what the listener sets explicitly
	 * @return the effective settings
	 * @throws IllegalArgumentException if a value is out of range, naming it
	 */
	public ContainerSettings resolveSettings(String queue, ListenerSettings settings) {
		Keyspace.validateQueueName(queue);
		QueueProperties overrides = this.queueOverrides.get(queue);
		EchoMqProperties.Listener defaults = this.listenerDefaults;
		int concurrency = pick(settings.getConcurrency(), (overrides != null) ? overrides.concurrency() : null,
				defaults.concurrency());
		Assert.isTrue(concurrency > 0, () -> "concurrency must be positive, was " + concurrency);
		Duration lease = pick(settings.getLease(), (overrides != null) ? overrides.lease() : null, defaults.lease());
		Assert.isTrue(lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		Integer cap = settings.getMaxAttempts();
		Assert.isTrue(cap == null || cap > 0, () -> "maxAttempts must be positive, was " + cap);
		EchoMqProperties.Backoff backoff = defaults.backoff();
		EchoMqProperties.BackoffOverrides queueBackoff = (overrides != null) ? overrides.backoff() : null;
		BackoffPolicy policy = new BackoffPolicy(
				pick(settings.getBackoffInitial(), (queueBackoff != null) ? queueBackoff.initial() : null,
						backoff.initial()),
				pick(settings.getBackoffMultiplier(), (queueBackoff != null) ? queueBackoff.multiplier() : null,
						backoff.multiplier()),
				pick(settings.getBackoffMax(), (queueBackoff != null) ? queueBackoff.max() : null, backoff.max()),
				pick(settings.getBackoffJitter(), (queueBackoff != null) ? queueBackoff.jitter() : null,
						backoff.jitter()));
		boolean autoStartup = pick(settings.getAutoStartup(), (overrides != null) ? overrides.autoStartup() : null,
				defaults.autoStartup());
		String id = StringUtils.hasText(settings.getId()) ? settings.getId() : queue;
		return new ContainerSettings(id, queue, concurrency, lease, cap, policy, autoStartup, defaults.idleWait(),
				this.shutdownTimeout);
	}

	/**
	 * Create a container, not started.
	 * @param queue the queue
	 * @param handler the handler
	 * @param settings what the listener sets explicitly
	 * @return the container
	 */
	public QueueListenerContainer createContainer(String queue, JobHandler handler, ListenerSettings settings) {
		return new QueueListenerContainer(resolveSettings(queue, settings), handler, this.jobs, this.executorFactory,
				this.leaseKeeper, this.events, this.invocationInterceptors);
	}

	JobEvents events() {
		return this.events;
	}

	@Override
	public void destroy() {
		this.leaseKeeper.close();
	}

	private static <T> T pick(@Nullable T explicit, @Nullable T queue, T fallback) {
		if (explicit != null) {
			return explicit;
		}
		return (queue != null) ? queue : fallback;
	}

}
