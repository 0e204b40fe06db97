package io.echomq.autoconfigure;

import java.util.Set;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.listener.EchoJobListenerRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link EchoMqQueueCatalog} shared by the metrics, health, endpoint and dashboard
 * auto-configurations, each of which imports this class.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Configuration(proxyBeanMethods = false)
public final class EchoMqQueueCatalogConfiguration {

	EchoMqQueueCatalogConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqQueueCatalog echoMqQueueCatalog(ObjectProvider<EchoJobListenerRegistry> listeners,
			EchoMqProperties properties) {
		EchoJobListenerRegistry registry = listeners.getIfUnique();
		return (registry != null) ? EchoMqQueueCatalog.of(registry, properties.queues().keySet())
				: new EchoMqQueueCatalog(Set::of, properties.queues().keySet());
	}

}
