package io.echomq.autoconfigure;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.QueuePartitioning;
import io.echomq.inspect.QueueBacklogs;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.micrometer.EchoMqControlMetrics;
import io.echomq.micrometer.EchoMqEnqueueMetrics;
import io.echomq.micrometer.EchoMqEventMetrics;
import io.echomq.micrometer.EchoMqJobMetrics;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of EchoMQ's Micrometer meters: job counters and timers fed by the
 * listener containers, the enqueue counter, and the sampled queue gauges; the
 * {@link MeterBinder} beans are bound by Boot's metrics auto-configuration.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = EchoMqAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterBinder.class, MetricsAutoConfiguration.class })
@ConditionalOnBean({ EchoMqEngine.class, MeterRegistry.class })
@EnableConfigurationProperties(EchoMqMetricsProperties.class)
@Import(EchoMqQueueCatalogConfiguration.class)
public final class EchoMqMetricsAutoConfiguration {

	EchoMqMetricsAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqJobMetrics echoMqJobMetrics() {
		return new EchoMqJobMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqEnqueueMetrics echoMqEnqueueMetrics() {
		return new EchoMqEnqueueMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqEventMetrics echoMqEventMetrics() {
		return new EchoMqEventMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqControlMetrics echoMqControlMetrics() {
		return new EchoMqControlMetrics();
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqQueueMetrics echoMqQueueMetrics(QueueInspector inspector, EchoMqQueueCatalog catalog,
			ObjectProvider<EchoJobListenerRegistry> listeners, EchoMqMetricsProperties properties,
			ObjectProvider<QueuePartitioning> partitioning, ObjectProvider<QueueBacklogs> backlogs) {
		EchoMqQueueMetrics metrics = new EchoMqQueueMetrics(inspector, catalog, listeners.getIfUnique(),
				properties.sampleInterval());
		metrics.setPartitioning(partitioning.getIfAvailable(QueuePartitioning::none));
		backlogs.ifUnique(metrics::setBacklogs);
		return metrics;
	}

}
