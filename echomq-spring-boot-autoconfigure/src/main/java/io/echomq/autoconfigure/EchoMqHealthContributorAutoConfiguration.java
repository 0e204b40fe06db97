package io.echomq.autoconfigure;

import io.echomq.actuate.EchoMqHealthIndicator;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.QueuePartitioning;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.maintenance.MaintenanceStatus;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the {@code echomq} health indicator, behind
 * {@code management.health.echomq.enabled}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = EchoMqAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(EchoMqEngine.class)
@ConditionalOnEnabledHealthIndicator("echomq")
@EnableConfigurationProperties(EchoMqHealthProperties.class)
@Import(EchoMqQueueCatalogConfiguration.class)
public final class EchoMqHealthContributorAutoConfiguration {

	EchoMqHealthContributorAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean(name = "echomqHealthContributor")
	EchoMqHealthIndicator echomqHealthContributor(QueueInspector inspector, EchoMqQueueCatalog catalog,
			ObjectProvider<EchoJobListenerRegistry> listeners, ObjectProvider<MaintenanceStatus> maintenance,
			EchoMqHealthProperties properties, ObjectProvider<QueuePartitioning> partitioning) {
		EchoMqHealthIndicator indicator = new EchoMqHealthIndicator(inspector, catalog, listeners.getIfUnique(),
				maintenance.getIfUnique(), properties.deadThreshold());
		indicator.setPartitioning(partitioning.getIfAvailable(QueuePartitioning::none));
		return indicator;
	}

}
