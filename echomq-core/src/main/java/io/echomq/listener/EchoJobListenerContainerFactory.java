package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Engine;
import io.echomq.crypto.QueueEncryption;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Creates {@link QueueListenerContainer containers}, resolving each listener's settings:
 * what the listener sets explicitly, else what its queue sets, else the factory's
 * {@link ContainerDefaults}. Owns the lease keeper thread shared by its containers.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoJobListenerContainerFactory implements DisposableBean {

	private final Engine jobs;

	private final LeaseKeeper leaseKeeper = new LeaseKeeper();

	private ContainerDefaults defaults = ContainerDefaults.defaults();

	private Map<String, ListenerSettings> queueSettings = Map.of();

	private Map<String, FlowLimits> queueLimits = Map.of();

	private JobExecutorFactory executorFactory = JobExecutorFactory.platformThreads();

	private JobEvents events = JobEvents.NONE;

	private List<JobInvocationInterceptor> invocationInterceptors = List.of();

	private QueuePartitioning partitioning = QueuePartitioning.none();

	private EchoMqNode node = EchoMqNode.local(null);

	private QueueEncryption encryption = QueueEncryption.none();

	/**
	 * Create a factory on the engine.
	 * @param engine the engine
	 */
	public EchoJobListenerContainerFactory(EchoMqEngine engine) {
		Engine jobs = Engine.of(engine);
		this.jobs = jobs;
	}

	/**
	 * Set what every container inherits.
	 * @param defaults the defaults
	 */
	public void setDefaults(ContainerDefaults defaults) {
		Assert.notNull(defaults, "'defaults' must not be null");
		this.defaults = defaults;
	}

	/**
	 * Return what every container inherits.
	 * @return the defaults
	 */
	public ContainerDefaults getDefaults() {
		return this.defaults;
	}

	/**
	 * Set what each queue sets for its listeners; unset values inherit the defaults.
	 * @param queueSettings the settings by queue name
	 */
	public void setQueueSettings(Map<String, ListenerSettings> queueSettings) {
		Assert.notNull(queueSettings, "'queueSettings' must not be null");
		this.queueSettings = Map.copyOf(queueSettings);
	}

	/**
	 * Set the cluster-wide flow limits of queues; a queue not named has none.
	 * @param queueLimits the limits by queue name
	 */
	public void setQueueLimits(Map<String, FlowLimits> queueLimits) {
		Assert.notNull(queueLimits, "'queueLimits' must not be null");
		queueLimits.keySet().forEach(Keyspace::validateQueueName);
		this.queueLimits = Map.copyOf(queueLimits);
	}

	/**
	 * Return the cluster-wide flow limits of a queue.
	 * @param queue the queue
	 * @return its limits, {@link FlowLimits#none()} when it has none
	 */
	public FlowLimits getQueueLimits(String queue) {
		return this.queueLimits.getOrDefault(queue, FlowLimits.none());
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
	 * Set how many partitions each queue has: a container of a partitioned queue claims
	 * across all its partitions.
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	/**
	 * Set the node the containers claim for: the name their claims write to the rows
	 * ({@value EchoMqNode#CLAIMED_BY_FIELD}) and their queues' node registries hold them
	 * under.
	 * @param node the node
	 */
	public void setNode(EchoMqNode node) {
		Assert.notNull(node, "'node' must not be null");
		this.node = node;
	}

	/**
	 * Return the node the containers claim for.
	 * @return the node
	 */
	public EchoMqNode getNode() {
		return this.node;
	}

	/**
	 * Set which queues are encrypted: the containers of those queues decrypt each payload
	 * once, before the interceptors and whatever handler see it (an {@code @EchoJob}
	 * method or a {@link JobHandler} registered by hand). A payload that cannot be
	 * decrypted dead-letters its job at once.
	 * @param encryption the queue encryption
	 * @since 0.3.0
	 */
	public void setEncryption(QueueEncryption encryption) {
		Assert.notNull(encryption, "'encryption' must not be null");
		this.encryption = encryption;
	}

	/**
	 * Return which queues are encrypted.
	 * @return the queue encryption
	 * @since 0.3.0
	 */
	public QueueEncryption getEncryption() {
		return this.encryption;
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
		ListenerSettings forQueue = this.queueSettings.getOrDefault(queue, ListenerSettings.inherit());
		ContainerDefaults defaults = this.defaults;
		int concurrency = pick(settings.getConcurrency(), forQueue.getConcurrency(), defaults.concurrency());
		Assert.isTrue(concurrency > 0, () -> "concurrency must be positive, was " + concurrency);
		Duration lease = pick(settings.getLease(), forQueue.getLease(), defaults.lease());
		Assert.isTrue(lease.toMillis() > 0, () -> "lease must be at least 1ms, was " + lease);
		Integer cap = settings.getMaxAttempts();
		Assert.isTrue(cap == null || cap > 0, () -> "maxAttempts must be positive, was " + cap);
		BackoffPolicy backoff = defaults.backoff();
		BackoffPolicy policy = new BackoffPolicy(
				pick(settings.getBackoffInitial(), forQueue.getBackoffInitial(), backoff.initial()),
				pick(settings.getBackoffMultiplier(), forQueue.getBackoffMultiplier(), backoff.multiplier()),
				pick(settings.getBackoffMax(), forQueue.getBackoffMax(), backoff.max()),
				pick(settings.getBackoffJitter(), forQueue.getBackoffJitter(), backoff.jitter()));
		boolean autoStartup = pick(settings.getAutoStartup(), forQueue.getAutoStartup(), defaults.autoStartup());
		String id = StringUtils.hasText(settings.getId()) ? settings.getId() : queue;
		List<Class<? extends Throwable>> retryFor = pick(settings.getRetryFor(), forQueue.getRetryFor(),
				defaults.retryFor());
		List<Class<? extends Throwable>> noRetryFor = pick(settings.getNoRetryFor(), forQueue.getNoRetryFor(),
				defaults.noRetryFor());
		RetryPolicy retryPolicy = RetryPolicy.builder().includes(retryFor).excludes(noRetryFor).build();
		Duration timeout = pickNullable(settings.getTimeout(), forQueue.getTimeout(), defaults.timeout());
		FlowLimits limits = getQueueLimits(queue);
		// a job claimed ahead would hold a share of a flow limit while it waits
		Integer ahead = defaults.claimAhead();
		int claimAhead = limits.isLimited() ? 0 : (ahead != null) ? ahead : concurrency;
		return new ContainerSettings(id, queue, concurrency, lease, cap, policy, autoStartup, defaults.idleWait(),
				defaults.shutdownTimeout(), retryPolicy, timeout, limits, claimAhead);
	}

	/**
	 * Create a listener's container, not started.
	 * @param endpoint the listener
	 * @return the container
	 */
	public QueueListenerContainer createContainer(EchoJobListenerEndpoint endpoint) {
		String queue = endpoint.getQueue();
		return new QueueListenerContainer(resolveSettings(queue, endpoint.getSettings()), endpoint.getHandler(),
				this.jobs, this.executorFactory, this.leaseKeeper, this.events, this.invocationInterceptors,
				this.partitioning.forQueue(queue), this.node, this.encryption);
	}

	JobEvents events() {
		return this.events;
	}

	@Override
	public void destroy() {
		this.leaseKeeper.close();
	}

	private static <T> @Nullable T pickNullable(@Nullable T explicit, @Nullable T queue, @Nullable T fallback) {
		if (explicit != null) {
			return explicit;
		}
		return (queue != null) ? queue : fallback;
	}

	private static <T> T pick(@Nullable T explicit, @Nullable T queue, T fallback) {
		if (explicit != null) {
			return explicit;
		}
		return (queue != null) ? queue : fallback;
	}

}
