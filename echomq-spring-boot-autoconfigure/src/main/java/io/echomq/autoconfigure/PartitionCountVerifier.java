package io.echomq.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Set;

import io.echomq.core.PartitionCountCheck;
import io.echomq.core.QueuePartitioning;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.maintenance.EchoMqScheduler;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;

/**
 * Checks, before the scheduler and the listeners start, that every queue whose
 * {@code echomq.queues.<name>.partitions} is set, or that is consumed here, still has
 * the partition count its jobs were written with ({@link PartitionCountCheck}); a change
 * for a queue that holds jobs fails the start-up. When the server cannot be reached the
 * check is logged and skipped (the listeners retry on their own).
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

	private volatile boolean running;

	PartitionCountVerifier(PartitionCountCheck check, QueuePartitioning partitioning, Set<String> configured,
			ObjectProvider<EchoJobListenerRegistry> registry) {
		this.check = check;
		this.partitioning = partitioning;
		this.configured = configured;
		this.registry = registry;
	}

	@Override
	public void start() {
		Set<String> queues = new LinkedHashSet<>(this.configured);
		EchoJobListenerRegistry current = this.registry.getIfUnique();
		if (current != null) {
			queues.addAll(current.getQueues());
		}
		for (String queue : queues) {
			try {
				this.check.verify(this.partitioning.forQueue(queue));
			}
			catch (DataAccessException ex) {
				logger.warn("Could not check the partition count of EchoMQ queue '" + queue + "': " + ex.getMessage());
			}
		}
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return EchoMqScheduler.DEFAULT_PHASE - 100;
	}

}
