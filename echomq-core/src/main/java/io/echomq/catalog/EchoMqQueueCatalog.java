package io.echomq.catalog;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.JobId;
import io.echomq.listener.EchoJobListenerRegistry;

import org.springframework.util.Assert;

/**
 * The queues an application reports on: those with a listener here, those named under
 * {@code echomq.queues}, and those the template wrote to since start-up (an
 * {@link EnqueueInterceptor} that adds no field). At most {@value #MAX_ENQUEUED} queues
 * are learned from enqueues, so that queue names made up at run time cannot grow the
 * catalog, or the meters tagged with it, without bound.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqQueueCatalog implements EnqueueInterceptor {

	/** Most queues learned from enqueues. */
	public static final int MAX_ENQUEUED = 1000;

	private final Supplier<? extends Collection<String>> listenerQueues;

	private final Set<String> configured;

	private final Set<String> enqueued = ConcurrentHashMap.newKeySet();

	/**
	 * Create a catalog.
	 * @param listenerQueues the queues that have a listener, asked on every read
	 * @param configured the queues named in configuration
	 */
	public EchoMqQueueCatalog(Supplier<? extends Collection<String>> listenerQueues, Collection<String> configured) {
		Assert.notNull(listenerQueues, "'listenerQueues' must not be null");
		Assert.notNull(configured, "'configured' must not be null");
		this.listenerQueues = listenerQueues;
		this.configured = new TreeSet<>(configured);
	}

	/**
	 * Create a catalog of a listener registry's queues and the configured queues.
	 * @param registry the registry
	 * @param configured the queues named in configuration
	 * @return the catalog
	 */
	public static EchoMqQueueCatalog of(EchoJobListenerRegistry registry, Collection<String> configured) {
		return new EchoMqQueueCatalog(registry::getQueues, configured);
	}

	/**
	 * Return every known queue: listener queues in registration order, then configured
	 * and enqueued queues by name.
	 * @return a snapshot
	 */
	public Set<String> queues() {
		Set<String> all = new LinkedHashSet<>(this.listenerQueues.get());
		Set<String> others = new TreeSet<>(this.configured);
		others.addAll(this.enqueued);
		all.addAll(others);
		return all;
	}

	/**
	 * Return whether a queue is known.
	 * @param queue the queue
	 * @return whether it is in the catalog
	 */
	public boolean contains(String queue) {
		return this.enqueued.contains(queue) || this.configured.contains(queue)
				|| this.listenerQueues.get().contains(queue);
	}

	@Override
	public Map<String, String> fields(String queue, Map<String, String> fields) {
		return fields;
	}

	@Override
	public void onEnqueued(String queue, List<JobId> ids) {
		if (this.enqueued.size() < MAX_ENQUEUED) {
			this.enqueued.add(queue);
		}
	}

}
