package io.echomq.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.echomq.EchoMqTemplate;
import io.echomq.core.PartitionCountChangedException;
import io.echomq.core.internal.PartitionCountCheck;
import io.echomq.core.QueuePartitioning;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import org.jspecify.annotations.Nullable;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;

/**
 * Checks, before the scheduler and the listeners start, that every queue whose
 * {@code echomq.queues.<name>.partitions} is set, or that is consumed here, still has the
 * partition count its jobs were written with ({@link PartitionCountCheck}); a change for
 * a queue that holds jobs, or held by another running application, fails the start-up.
 * While running it renews its hold on each count every third of
 * {@link PartitionCountCheck#DEFAULT_HOLD}; a renewal that finds the count changed under
 * it (its hold lapsed) makes the template refuse enqueues to that queue and stops its
 * listener. When the server cannot be reached the check is logged and skipped (the
 * listeners retry on their own).
 *
 * @author EchoMQ
 * @since 0.2.0
 */
final class PartitionCountVerifier implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(PartitionCountVerifier.class);

	private final PartitionCountCheck check;

	private final QueuePartitioning partitioning;

	private final Set<String> configured;

	private final ObjectProvider<EchoJobListenerRegistry> registry;

	private final ObjectProvider<EchoMqTemplate> template;

	private final String holder = UUID.randomUUID().toString();

	private final Set<String> held = ConcurrentHashMap.newKeySet();

	private volatile @Nullable ScheduledExecutorService renewals;

	private volatile boolean running;

	PartitionCountVerifier(PartitionCountCheck check, QueuePartitioning partitioning, Set<String> configured,
			ObjectProvider<EchoJobListenerRegistry> registry, ObjectProvider<EchoMqTemplate> template) {
		this.check = check;
		this.partitioning = partitioning;
		this.configured = configured;
		this.registry = registry;
		this.template = template;
	}

	@Override
	public void start() {
		Set<String> queues = new LinkedHashSet<>(this.configured);
		EchoJobListenerRegistry current = this.registry.getIfUnique();
		if (current != null) {
			queues.addAll(current.getQueues());
		}
		Set<String> unchecked = new LinkedHashSet<>();
		@Nullable DataAccessException failure = null;
		for (String queue : queues) {
			try {
				this.check.join(this.partitioning.forQueue(queue), this.holder, PartitionCountCheck.DEFAULT_HOLD);
				this.held.add(queue);
			}
			catch (DataAccessException ex) {
				unchecked.add(queue);
				failure = ex;
			}
			catch (RuntimeException ex) {
				// the start-up fails: the counts held so far must not block the next
				// start for a whole hold
				leaveAll();
				throw ex;
			}
		}
		if (failure != null) {
			logger
				.warn("Could not check the partition count of EchoMQ " + ((unchecked.size() > 1) ? "queues " : "queue ")
						+ unchecked.stream().map((queue) -> "'" + queue + "'").collect(Collectors.joining(", ")) + ": "
						+ failure.getMessage());
		}
		if (!this.held.isEmpty()) {
			ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "echomq-partition-count");
				thread.setDaemon(true);
				return thread;
			});
			long every = PartitionCountCheck.DEFAULT_HOLD.toMillis() / 3;
			executor.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
			this.renewals = executor;
		}
		this.running = true;
	}

	private void renew() {
		for (String queue : this.held) {
			try {
				this.check.renew(this.partitioning.forQueue(queue), this.holder, PartitionCountCheck.DEFAULT_HOLD);
			}
			catch (PartitionCountChangedException ex) {
				logger.error(ex.getMessage() + "; enqueues to it are refused and its listener stops");
				this.held.remove(queue);
				EchoMqTemplate current = this.template.getIfUnique();
				if (current != null) {
					current.refuse(queue, ex);
				}
				EchoJobListenerRegistry listeners = this.registry.getIfUnique();
				QueueListenerContainer container = (listeners != null) ? listeners.getContainer(queue) : null;
				if (container != null) {
					container.stop(() -> {
					});
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Could not renew the partition count of EchoMQ queue '" + queue + "': " + ex.getMessage());
			}
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService executor = this.renewals;
		if (executor != null) {
			executor.shutdownNow();
			this.renewals = null;
		}
		leaveAll();
		this.running = false;
	}

	private void leaveAll() {
		for (String queue : this.held) {
			try {
				this.check.leave(this.partitioning.forQueue(queue), this.holder);
			}
			catch (RuntimeException ex) {
				logger.debug("Could not give up the partition count hold of EchoMQ queue '" + queue + "': "
						+ ex.getMessage());
			}
		}
		this.held.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return EchoMqMaintenance.DEFAULT_PHASE - 100;
	}

}
