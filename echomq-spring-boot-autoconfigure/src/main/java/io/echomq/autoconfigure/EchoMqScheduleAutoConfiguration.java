package io.echomq.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.annotation.EchoScheduleAnnotationBeanPostProcessor;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.internal.Engine;
import io.echomq.crypto.QueueEncryption;
import io.echomq.micrometer.EchoMqScheduleMetrics;
import io.echomq.schedule.DeclaredSchedule;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFireListener;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.internal.ScheduleTicker;
import io.echomq.schedule.internal.Schedules;
import io.echomq.support.PayloadConverter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.task.ThreadPoolTaskSchedulerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Auto-configuration of recurring schedules: the store, the {@code @EchoSchedule}
 * post-processor, the schedules declared under {@code echomq.schedules.<name>}, the tick
 * every node runs, and the {@code echomq.schedule.fires} counter.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = EchoMqAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnBean(EchoMqEngine.class)
public final class EchoMqScheduleAutoConfiguration {

	EchoMqScheduleAutoConfiguration() {
	}

	@Bean(name = EchoScheduleAnnotationBeanPostProcessor.BEAN_NAME)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = EchoScheduleAnnotationBeanPostProcessor.BEAN_NAME)
	static EchoScheduleAnnotationBeanPostProcessor echoScheduleAnnotationBeanPostProcessor() {
		return new EchoScheduleAnnotationBeanPostProcessor();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "echomq.schedule.enabled", matchIfMissing = true)
	ScheduleTicker echoMqScheduleTicker(EchoMqEngine engine, EchoMqProperties properties,
			PayloadConverter payloadConverter, ObjectProvider<EchoScheduleAnnotationBeanPostProcessor> annotated,
			ObjectProvider<ThreadPoolTaskSchedulerBuilder> schedulerBuilder,
			ObjectProvider<ScheduleFireListener> listeners, ObjectProvider<QueueEncryption> encryption) {
		QueueEncryption encrypted = encryption.getIfUnique(QueueEncryption::none);
		List<DeclaredSchedule> declared = notEncrypted(declared(properties, payloadConverter), encrypted);
		return new ScheduleTicker(new Schedules(Engine.of(engine)), properties.schedule().interval(),
				properties.schedule().misfireThreshold(), () -> {
					List<DeclaredSchedule> all = new ArrayList<>(declared);
					EchoScheduleAnnotationBeanPostProcessor processor = annotated.getIfAvailable();
					if (processor != null) {
						all.addAll(notEncrypted(processor.getDeclarations(payloadConverter), encrypted));
					}
					return all;
				}, (queue) -> maxAttempts(properties, queue), payloadConverter,
				() -> privateScheduler(schedulerBuilder), listeners.orderedStream().toList());
	}

	/**
	 * Declared schedules would store their payload in clear: refused on an encrypted
	 * queue (schedules put with the template are encrypted).
	 */
	static List<DeclaredSchedule> notEncrypted(List<DeclaredSchedule> declared, QueueEncryption encryption) {
		for (DeclaredSchedule schedule : declared) {
			String queue = schedule.definition().queue();
			if (encryption.isEncrypted(queue)) {
				throw new InvalidScheduleException(schedule.source() + " declares schedule '"
						+ schedule.definition().name() + "' on queue '" + queue + "', which has echomq.queues." + queue
						+ ".encryption.enabled=true: a declared schedule would store its payload in clear; put it with "
						+ "EchoMqTemplate.schedule(...) instead, which encrypts it");
			}
		}
		return declared;
	}

	/**
	 * The schedules declared under {@code echomq.schedules}, validated now so that a bad
	 * one fails the start-up naming the property and the value.
	 */
	static List<DeclaredSchedule> declared(EchoMqProperties properties, PayloadConverter converter) {
		List<DeclaredSchedule> declared = new ArrayList<>();
		for (Map.Entry<String, EchoMqProperties.Schedule> entry : properties.schedules().entrySet()) {
			String name = entry.getKey();
			EchoMqProperties.Schedule schedule = entry.getValue();
			String source = "property echomq.schedules." + name;
			if (!schedule.enabled()) {
				continue;
			}
			try {
				if (schedule.queue() == null) {
					throw new InvalidScheduleException("Schedule '" + name + "' names no queue");
				}
				ScheduleSpec spec = new ScheduleSpec(schedule.cron(), schedule.every(),
						ScheduleSpec.zone(schedule.zone()), schedule.misfire(), schedule.catchUp(), schedule.overlap(),
						schedule.start(), schedule.end());
				ScheduleDefinition definition = new ScheduleDefinition(schedule.queue(), name, spec,
						converter.write(schedule.payload()), ScheduleOrigin.PROPERTIES);
				declared.add(new DeclaredSchedule(definition, null, source));
			}
			catch (InvalidScheduleException ex) {
				throw new InvalidScheduleException(source + ": " + ex.getMessage(), ex);
			}
		}
		return declared;
	}

	private static int maxAttempts(EchoMqProperties properties, String queue) {
		EchoMqQueueProperties overrides = properties.queues().get(queue);
		return (overrides != null && overrides.maxAttempts() != null) ? overrides.maxAttempts()
				: properties.listener().maxAttempts();
	}

	private static ThreadPoolTaskScheduler privateScheduler(
			ObjectProvider<@Nullable ThreadPoolTaskSchedulerBuilder> builder) {
		ThreadPoolTaskScheduler scheduler = builder.getIfAvailable(ThreadPoolTaskSchedulerBuilder::new)
			.poolSize(1)
			.threadNamePrefix("echomq-schedule-")
			.build();
		scheduler.setDaemon(true);
		scheduler.setWaitForTasksToCompleteOnShutdown(true);
		scheduler.setAwaitTerminationSeconds(5);
		return scheduler;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	@ConditionalOnBean(MeterRegistry.class)
	static class ScheduleMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EchoMqScheduleMetrics echoMqScheduleMetrics() {
			return new EchoMqScheduleMetrics();
		}

	}

}
