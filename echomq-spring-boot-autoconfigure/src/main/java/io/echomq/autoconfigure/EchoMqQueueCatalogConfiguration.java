package io.echomq.autoconfigure;

import java.util.Set;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.listener.EchoJobListenerRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link EchoMqQueueCatalog} shared by the metrics, health and endpoint
 * auto-configurations, each of which imports this class.
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
final class EchoMqQueueCatalogConfiguration {

	@Bean
	@ConditionalOnMissingBean
	EchoMqQueueCatalog echoMqQueueCatalog(ObjectProvider<EchoJobListenerRegistry> listeners,
			EchoMqProperties properties) {
		EchoJobListenerRegistry registry = listeners.getIfUnique();
		return (registry != null) ? EchoMqQueueCatalog.of(registry, properties.queues().keySet())
				: new EchoMqQueueCatalog(Set::of, properties.queues().keySet());
	}

}
