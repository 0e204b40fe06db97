package io.echomq.autoconfigure;

import java.time.Duration;

import io.echomq.EchoMqAdmin;
import io.echomq.actuate.EchoMqEndpoint;
import io.echomq.actuate.EchoMqEndpointWebExtension;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.QueuePartitioning;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.schedule.EchoMqSchedules;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.server.WebFilter;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Auto-configuration of the {@code echomq} endpoint and its web extension.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = EchoMqAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(EchoMqEngine.class)
@ConditionalOnAvailableEndpoint(EchoMqEndpoint.class)
@EnableConfigurationProperties(EchoMqEndpointProperties.class)
@Import(EchoMqQueueCatalogConfiguration.class)
public final class EchoMqEndpointAutoConfiguration {

	/** Slack added to the reap interval before the audit reports an overdue lease. */
	private static final Duration AUDIT_SLACK = Duration.ofSeconds(5);

	EchoMqEndpointAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqEndpoint echoMqEndpoint(EchoMqEngine engine, EchoMqQueueCatalog catalog,
			ObjectProvider<EchoJobListenerRegistry> listeners, EchoMqProperties properties,
			ObjectProvider<SanitizingFunction> sanitizingFunctions, ObjectProvider<EchoMqSchedules> schedules,
			ObjectProvider<EchoMqAdmin> admin, ObjectProvider<QueuePartitioning> partitioning,
			ObjectProvider<QueueInspector> inspector, ObjectProvider<QueueAuditor> auditor,
			ObjectProvider<FlowTree> flows, ObjectProvider<BatchView> batches) {
		EchoJobListenerRegistry registry = listeners.getIfUnique();
		EchoMqEndpoint endpoint = new EchoMqEndpoint(admin.getIfUnique(() -> admin(engine, partitioning)),
				inspector.getIfUnique(() -> new QueueInspector(engine)),
				auditor.getIfUnique(() -> new QueueAuditor(engine)), flows.getIfUnique(() -> new FlowTree(engine)),
				batches.getIfUnique(() -> new BatchView(engine)), catalog, registry,
				new ReplayBudget(registry, properties),
				properties.maintenance().reapInterval().multipliedBy(2).plus(AUDIT_SLACK),
				new Sanitizer(sanitizingFunctions.orderedStream().toList()));
		endpoint.setSchedules(schedules.getIfUnique());
		return endpoint;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(EchoMqEndpoint.class)
	@ConditionalOnAvailableEndpoint(exposure = EndpointExposure.WEB)
	EchoMqEndpointWebExtension echoMqEndpointWebExtension(EchoMqEndpoint endpoint,
			EchoMqEndpointProperties properties) {
		return new EchoMqEndpointWebExtension(endpoint, properties.showValues(), properties.roles());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(ResponseBodyAdvice.class)
	@ConditionalOnAvailableEndpoint(endpoint = EchoMqEndpoint.class, exposure = EndpointExposure.WEB)
	static class EndpointLinksConfiguration {

		@Bean
		EchoMqEndpointLinks echoMqEndpointLinks() {
			return new EchoMqEndpointLinks();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(WebFilter.class)
	@ConditionalOnAvailableEndpoint(endpoint = EchoMqEndpoint.class, exposure = EndpointExposure.WEB)
	static class ReactiveEndpointLinksConfiguration {

		@Bean
		EchoMqReactiveEndpointLinks echoMqReactiveEndpointLinks(ObjectProvider<WebEndpointProperties> properties) {
			return new EchoMqReactiveEndpointLinks(properties.getIfAvailable(WebEndpointProperties::new).getBasePath());
		}

	}

	/**
	 * An admin of the endpoint's own, when the application has none (the engine was
	 * declared without EchoMQ's main auto-configuration).
	 */
	private static EchoMqAdmin admin(EchoMqEngine engine, ObjectProvider<QueuePartitioning> partitioning) {
		EchoMqAdmin admin = new EchoMqAdmin(engine);
		admin.setPartitioning(partitioning.getIfAvailable(QueuePartitioning::none));
		return admin;
	}

}
