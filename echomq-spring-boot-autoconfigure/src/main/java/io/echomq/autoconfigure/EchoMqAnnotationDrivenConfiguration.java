package io.echomq.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Supplier;

import io.echomq.annotation.EchoJobAnnotationBeanPostProcessor;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Engine;
import io.echomq.crypto.QueueEncryption;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.JobExecutorFactory;
import io.echomq.listener.JobInvocationInterceptor;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Listener infrastructure, imported by {@link EchoMqAutoConfiguration}: the
 * {@code @EchoJob} post-processor, the container factory and its configurer (platform or
 * virtual threads), the listener registry and the reap/promote maintenance.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Configuration(proxyBeanMethods = false)
public final class EchoMqAnnotationDrivenConfiguration {

	/** Name of the default container factory bean. */
	public static final String CONTAINER_FACTORY_BEAN_NAME = "echoJobListenerContainerFactory";

	EchoMqAnnotationDrivenConfiguration() {
	}

	@Bean(name = EchoJobAnnotationBeanPostProcessor.BEAN_NAME)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = EchoJobAnnotationBeanPostProcessor.BEAN_NAME)
	static EchoJobAnnotationBeanPostProcessor echoJobAnnotationBeanPostProcessor() {
		return new EchoJobAnnotationBeanPostProcessor();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnThreading(Threading.PLATFORM)
	EchoJobListenerContainerFactoryConfigurer echoJobListenerContainerFactoryConfigurer(EchoMqProperties properties,
			ObjectProvider<JobEventListener> eventListeners, ObjectProvider<JobInvocationInterceptor> interceptors) {
		return new EchoJobListenerContainerFactoryConfigurer(properties, JobExecutorFactory.platformThreads(),
				eventListeners.orderedStream().toList(), interceptors.orderedStream().toList());
	}

	@Bean(name = "echoJobListenerContainerFactoryConfigurer")
	@ConditionalOnMissingBean
	@ConditionalOnThreading(Threading.VIRTUAL)
	EchoJobListenerContainerFactoryConfigurer echoJobListenerContainerFactoryConfigurerVirtualThreads(
			EchoMqProperties properties, ObjectProvider<JobEventListener> eventListeners,
			ObjectProvider<JobInvocationInterceptor> interceptors) {
		return new EchoJobListenerContainerFactoryConfigurer(properties, JobExecutorFactory.virtualThreads(),
				eventListeners.orderedStream().toList(), interceptors.orderedStream().toList());
	}

	@Bean(name = CONTAINER_FACTORY_BEAN_NAME)
	@ConditionalOnMissingBean(name = CONTAINER_FACTORY_BEAN_NAME)
	EchoJobListenerContainerFactory echoJobListenerContainerFactory(
			EchoJobListenerContainerFactoryConfigurer configurer, EchoMqEngine engine,
			ObjectProvider<QueuePartitioning> partitioning, ObjectProvider<EchoMqNode> node,
			ObjectProvider<QueueEncryption> encryption) {
		EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(engine);
		configurer.configure(factory);
		factory.setPartitioning(partitioning.getIfAvailable(QueuePartitioning::none));
		factory.setEncryption(encryption.getIfUnique(QueueEncryption::none));
		node.ifAvailable(factory::setNode);
		return factory;
	}

	@Bean
	@ConditionalOnMissingBean
	EchoJobListenerRegistry echoJobListenerRegistry(EchoJobListenerContainerFactory echoJobListenerContainerFactory) {
		return new EchoJobListenerRegistry(echoJobListenerContainerFactory);
	}

	@Bean
	EchoMqMaintenance echoMqMaintenance(EchoMqEngine engine, EchoMqProperties properties,
			ObjectProvider<EchoJobListenerRegistry> registry,
			ObjectProvider<ThreadPoolTaskSchedulerBuilder> schedulerBuilder,
			ObjectProvider<JobEventListener> eventListeners, ObjectProvider<QueuePartitioning> partitioning) {
		// the registry is looked up on each tick, not injected: a SmartLifecycle that
		// depends on the registry would be stopped with it, in its phase
		EchoMqProperties.Maintenance maintenance = properties.maintenance();
		return new EchoMqMaintenance(Engine.of(engine),
				new MaintenanceSettings(maintenance.reapInterval(), maintenance.promoteInterval(),
						maintenance.batchSize(), maintenance.idleCheck()),
				queuesOf(registry, properties, partitioning.getIfAvailable(QueuePartitioning::none)),
				() -> privateScheduler(schedulerBuilder), eventListeners.orderedStream().toList());
	}

	/**
	 * The queues of the registry, if there is one, plus those named under
	 * {@code echomq.queues}, asked on every tick; each partition of a partitioned queue.
	 */
	private static Supplier<Set<String>> queuesOf(ObjectProvider<EchoJobListenerRegistry> registry,
			EchoMqProperties properties, QueuePartitioning partitioning) {
		return () -> {
			Set<String> all = new LinkedHashSet<>();
			EchoJobListenerRegistry current = registry.getIfUnique();
			if (current != null) {
				all.addAll(current.getQueues());
			}
			all.addAll(properties.queues().keySet());
			return partitioning.engineNames(all);
		};
	}

	private static ThreadPoolTaskScheduler privateScheduler(ObjectProvider<ThreadPoolTaskSchedulerBuilder> builder) {
		ThreadPoolTaskScheduler scheduler = builder.getIfAvailable(ThreadPoolTaskSchedulerBuilder::new)
			.poolSize(2)
			.threadNamePrefix("echomq-scheduler-")
			.build();
		scheduler.setDaemon(true);
		// let a running tick finish rather than interrupt its Redis call
		scheduler.setWaitForTasksToCompleteOnShutdown(true);
		scheduler.setAwaitTerminationSeconds(5);
		return scheduler;
	}

}
