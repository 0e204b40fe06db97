package io.echomq.benchmark;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

import io.echomq.core.internal.Engine;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobHandler;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * {@link Consumers} as an application runs them: the real listener containers, registered
 * programmatically with every setting but the concurrency left at its default, and the
 * reap and promote ticks ({@link EchoMqMaintenance}, default intervals) over the
 * registry's queues.
 *
 * @author EchoMQ
 */
final class ListenerConsumers implements Consumers {

	private final EchoJobListenerContainerFactory factory;

	private final EchoJobListenerRegistry registry;

	private final EchoMqMaintenance scheduler;

	private final List<QueueListenerContainer> containers = new CopyOnWriteArrayList<>();

	ListenerConsumers(Engine jobs) {
		this(jobs, (engine, factory) -> {
		});
	}

	/**
	 * Create consumers whose engine and container factory the caller sets up first (flow
	 * limits, partitions, retention).
	 * @param jobs the engine
	 * @param customizer called with the engine and the factory before any container
	 */
	ListenerConsumers(Engine jobs, BiConsumer<Engine, EchoJobListenerContainerFactory> customizer) {
		this.factory = new EchoJobListenerContainerFactory(jobs);
		customizer.accept(jobs, this.factory);
		this.registry = new EchoJobListenerRegistry(this.factory);
		this.scheduler = new EchoMqMaintenance(jobs, MaintenanceSettings.defaults(), this.registry::getQueues,
				ListenerConsumers::tickScheduler, List.of());
		this.scheduler.start();
		this.registry.start();
	}

	private static ThreadPoolTaskScheduler tickScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setPoolSize(2);
		scheduler.setThreadNamePrefix("echomq-scheduler-");
		scheduler.setDaemon(true);
		return scheduler;
	}

	@Override
	public void start(String queue, int concurrency, BenchHandler handler) {
		this.containers.add(this.registry.register(queue, (job, context) -> handler.handle(job.payload()),
				ListenerSettings.builder().concurrency(concurrency).build()));
	}

	/**
	 * Start consuming a queue with a handler of the listener's own kind, such as a
	 * {@link io.echomq.listener.MethodJobHandler} whose return value is the job's result.
	 * @param queue the queue
	 * @param concurrency how many handlers run at once
	 * @param handler the handler
	 */
	void start(String queue, int concurrency, JobHandler handler) {
		this.containers
			.add(this.registry.register(queue, handler, ListenerSettings.builder().concurrency(concurrency).build()));
	}

	@Override
	public long completed() {
		long total = 0;
		for (QueueListenerContainer container : this.containers) {
			total += container.getCompletedCount();
		}
		return total;
	}

	@Override
	public void close() {
		this.registry.stop();
		this.scheduler.stop();
		this.factory.destroy();
	}

}
