package io.echomq.listener;

import io.echomq.crypto.QueueEncryption;
import io.echomq.support.internal.KeepAlive;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;
import org.springframework.util.Assert;

/**
 * Owns one {@link QueueListenerContainer} per queue, whether registered by the
 * {@code @EchoJob} post-processor or
 * {@linkplain #register(String, JobHandler, ListenerSettings) programmatically}. As a
 * {@link SmartLifecycle} in phase {@value #DEFAULT_PHASE} it starts the auto-startup
 * containers after the context refreshed and stops all of them before executors,
 * schedulers and the Redis connection factory; a stop returns once every container
 * drained (in parallel). A container registered while the registry runs starts at once.
 * <p>
 * Every EchoMQ thread is a daemon, so from the first container it starts until it stops,
 * the registry holds a non-daemon thread ({@value #KEEP_ALIVE_THREAD_NAME}), as
 * spring-kafka's consumer threads do: an application whose only work is its listeners (no
 * web server) keeps running until it is stopped, instead of exiting once its {@code main}
 * method returns.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoJobListenerRegistry implements SmartLifecycle, DisposableBean {

	/** The lifecycle phase: stops early, like Kafka's listener containers. */
	public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 100;

	/** Name of the non-daemon thread that keeps the JVM alive while listeners run. */
	public static final String KEEP_ALIVE_THREAD_NAME = "echomq-keep-alive";

	private static final LogAccessor logger = new LogAccessor(EchoJobListenerRegistry.class);

	private final EchoJobListenerContainerFactory factory;

	private final ReentrantLock lock = new ReentrantLock();

	private final Map<String, QueueListenerContainer> containers = new LinkedHashMap<>();

	private volatile boolean running;

	private @Nullable KeepAlive keepAlive;

	/**
	 * Create a registry.
	 * @param factory the factory that creates the containers
	 */
	public EchoJobListenerRegistry(EchoJobListenerContainerFactory factory) {
		Assert.notNull(factory, "'factory' must not be null");
		this.factory = factory;
	}

	/**
	 * Return which queues are encrypted: the containers open each payload of those queues
	 * before their handler sees it; a handler seals what it stores (results, progress
	 * objects) with the same.
	 * @return the queue encryption of the container factory
	 * @since 0.3.0
	 */
	public QueueEncryption getEncryption() {
		return this.factory.getEncryption();
	}

	/**
	 * Register a listener with inherited settings.
	 * @param queue the queue
	 * @param handler the handler
	 * @return the container
	 */
	public QueueListenerContainer register(String queue, JobHandler handler) {
		return register(EchoJobListenerEndpoint.of(queue, handler));
	}

	/**
	 * Register a listener with settings of its own.
	 * @param queue the queue
	 * @param handler the handler
	 * @param settings what the listener sets explicitly
	 * @return the container
	 */
	public QueueListenerContainer register(String queue, JobHandler handler, ListenerSettings settings) {
		return register(EchoJobListenerEndpoint.of(queue, handler, settings));
	}

	/**
	 * Register a listener, as an {@code @EchoJob} method is registered; it starts at once
	 * if the registry runs and it auto-starts.
	 * @param endpoint the listener
	 * @return the container
	 * @throws IllegalStateException if the queue already has a listener, or the id is
	 * another listener's
	 * @since 0.4.0
	 */
	public QueueListenerContainer register(EchoJobListenerEndpoint endpoint) {
		Assert.notNull(endpoint, "'endpoint' must not be null");
		String queue = endpoint.getQueue();
		JobHandler handler = endpoint.getHandler();
		QueueListenerContainer container = this.factory.createContainer(endpoint);
		this.lock.lock();
		try {
			QueueListenerContainer existing = this.containers.get(queue);
			if (existing != null) {
				throw new IllegalStateException("Queue '" + queue + "' already has a listener, " + existing.getHandler()
						+ "; cannot register " + handler + ": a queue has one listener per application");
			}
			for (QueueListenerContainer other : this.containers.values()) {
				if (other.getId().equals(container.getId())) {
					throw new IllegalStateException("Listener id '" + container.getId() + "' of " + handler
							+ " is already used by " + other.getHandler() + " on queue '" + other.getQueue() + "'");
				}
			}
			this.containers.put(queue, container);
			if (this.running && container.getSettings().autoStartup()) {
				startContainer(container);
			}
			return container;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Stop a queue's container, waiting for it to drain, and remove it.
	 * @param queue the queue
	 * @return the removed container, or {@code null} if none was registered
	 */
	public @Nullable QueueListenerContainer unregister(String queue) {
		QueueListenerContainer removed;
		this.lock.lock();
		try {
			removed = this.containers.remove(queue);
		}
		finally {
			this.lock.unlock();
		}
		if (removed != null) {
			removed.stop();
		}
		return removed;
	}

	/**
	 * Return the container of a queue.
	 * @param queue the queue
	 * @return the container, or {@code null}
	 */
	public @Nullable QueueListenerContainer getContainer(String queue) {
		this.lock.lock();
		try {
			return this.containers.get(queue);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return the container with a listener id.
	 * @param id the id
	 * @return the container, or {@code null}
	 */
	public @Nullable QueueListenerContainer getContainerById(String id) {
		for (QueueListenerContainer container : getContainers().values()) {
			if (container.getId().equals(id)) {
				return container;
			}
		}
		return null;
	}

	/**
	 * Return every container by queue, in registration order.
	 * @return an unmodifiable snapshot
	 */
	public Map<String, QueueListenerContainer> getContainers() {
		this.lock.lock();
		try {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.containers));
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return the queues that have a listener.
	 * @return an unmodifiable snapshot
	 */
	public Set<String> getQueues() {
		return getContainers().keySet();
	}

	@Override
	public void start() {
		this.lock.lock();
		try {
			this.running = true;
			for (QueueListenerContainer container : this.containers.values()) {
				if (container.getSettings().autoStartup()) {
					startContainer(container);
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	/**
	 * Stop every container in parallel and call back once all drained. The wait happens
	 * on the calling thread, bounded by the longest shutdown timeout: the lifecycle
	 * processor counts down its phase latch for every dependent {@code SmartLifecycle} it
	 * stops along with this one, so an asynchronous callback could be outrun.
	 * @param callback called once every container drained
	 */
	@Override
	public void stop(Runnable callback) {
		List<QueueListenerContainer> toStop = new ArrayList<>();
		this.lock.lock();
		try {
			this.running = false;
			for (QueueListenerContainer container : this.containers.values()) {
				if (container.isRunning()) {
					toStop.add(container);
				}
			}
		}
		finally {
			this.lock.unlock();
		}
		CountDownLatch drained = new CountDownLatch(toStop.size());
		for (QueueListenerContainer container : toStop) {
			container.stop(drained::countDown);
		}
		try {
			if (!drained.await(longestDrain(), TimeUnit.MILLISECONDS)) {
				logger.warn(() -> drained.getCount() + " EchoMQ listener containers did not drain in time");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			endKeepAlive();
			callback.run();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}

	@Override
	public void destroy() {
		boolean anyRunning = getContainers().values().stream().anyMatch(QueueListenerContainer::isRunning);
		if (anyRunning) {
			stop();
		}
		endKeepAlive();
	}

	private void startContainer(QueueListenerContainer container) {
		container.start();
		if (this.keepAlive == null) {
			this.keepAlive = KeepAlive.start(KEEP_ALIVE_THREAD_NAME);
		}
	}

	private void endKeepAlive() {
		KeepAlive ended;
		this.lock.lock();
		try {
			if (this.running) {
				return;
			}
			ended = this.keepAlive;
			this.keepAlive = null;
		}
		finally {
			this.lock.unlock();
		}
		if (ended != null) {
			ended.end();
		}
	}

	private long longestDrain() {
		long longest = 0;
		for (QueueListenerContainer container : getContainers().values()) {
			longest = Math.max(longest, container.getSettings().shutdownTimeout().toMillis());
		}
		return longest + 5_000;
	}

}
