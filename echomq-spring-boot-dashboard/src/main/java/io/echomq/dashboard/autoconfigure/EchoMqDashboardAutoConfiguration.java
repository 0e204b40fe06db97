package io.echomq.dashboard.autoconfigure;

import java.util.Set;

import io.echomq.EchoMqAdmin;
import io.echomq.autoconfigure.EchoMqProperties;
import io.echomq.autoconfigure.EchoMqQueueCatalogConfiguration;
import io.echomq.autoconfigure.ReplayBudget;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.dashboard.EchoMqDashboard;
import io.echomq.dashboard.EngineQueueHistory;
import io.echomq.dashboard.QueueHistory;
import io.echomq.dashboard.web.DashboardSecurity;
import io.echomq.dashboard.web.DashboardWriteGuard;
import io.echomq.dashboard.web.EchoMqDashboardRoutes;
import io.echomq.dashboard.web.SpringSecurityDashboardSecurity;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.schedule.EchoMqSchedules;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * Auto-configuration of the EchoMQ dashboard, served by a Spring MVC application at
 * {@code echomq.dashboard.path} ({@code /echomq} by default) unless
 * {@code echomq.dashboard.enabled} is {@code false}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "io.echomq.autoconfigure.EchoMqAutoConfiguration",
		"io.echomq.autoconfigure.EchoMqMetricsAutoConfiguration",
		"io.echomq.autoconfigure.EchoMqHealthContributorAutoConfiguration",
		"io.echomq.autoconfigure.EchoMqEndpointAutoConfiguration",
		"io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration" })
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass({ RouterFunction.class, Sanitizer.class, EchoMqEngine.class })
@ConditionalOnBean(EchoMqEngine.class)
@ConditionalOnBooleanProperty(name = "echomq.dashboard.enabled", matchIfMissing = true)
@EnableConfigurationProperties(EchoMqDashboardProperties.class)
@Import(EchoMqQueueCatalogConfiguration.class)
public final class EchoMqDashboardAutoConfiguration {

	private static final String ENDPOINT_SHOW_VALUES = "management.endpoint.echomq.show-values";

	private static final String ENDPOINT_ROLES = "management.endpoint.echomq.roles";

	EchoMqDashboardAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	QueueHistory echoMqQueueHistory(QueueInspector inspector) {
		return new EngineQueueHistory(inspector);
	}

	@Bean
	@ConditionalOnMissingBean
	EchoMqDashboard echoMqDashboard(EchoMqAdmin admin, QueueInspector inspector, QueueNodes nodes, FlowTree flows,
			BatchView batches, EchoMqQueueCatalog catalog, ObjectProvider<EchoJobListenerRegistry> listeners,
			EchoMqProperties properties, QueueHistory history, ObjectProvider<SanitizingFunction> sanitizingFunctions,
			Environment environment, ObjectProvider<EchoMqSchedules> schedules,
			ObjectProvider<EchoJobListenerContainerFactory> containerFactory, ObjectProvider<EchoMqNode> node) {
		EchoJobListenerRegistry registry = listeners.getIfUnique();
		EchoMqNode self = node
			.getIfAvailable(() -> EchoMqNode.local(environment.getProperty("spring.application.name")));
		EchoMqDashboard dashboard = new EchoMqDashboard(admin, inspector, nodes, flows, batches, catalog, registry,
				new ReplayBudget(registry, properties), history,
				new Sanitizer(sanitizingFunctions.orderedStream().toList()), self.name(), schedules.getIfUnique());
		EchoJobListenerContainerFactory factory = containerFactory.getIfUnique();
		if (factory != null) {
			dashboard.setLimits(factory::getQueueLimits);
		}
		return dashboard;
	}

	@Bean
	@ConditionalOnMissingBean
	DashboardSecurity echoMqDashboardSecurity() {
		return DashboardSecurity.none();
	}

	@Bean
	RouterFunction<ServerResponse> echoMqDashboardRoutes(EchoMqDashboard dashboard, DashboardSecurity security,
			EchoMqDashboardProperties properties, Environment environment) {
		DashboardWriteGuard guard = new DashboardWriteGuard(properties.readOnly(), security.writeRole());
		Show show = properties.showValues();
		Set<String> roles = properties.roles();
		if (show == null) {
			Binder binder = Binder.get(environment);
			show = binder.bind(ENDPOINT_SHOW_VALUES, Show.class).orElse(Show.NEVER);
			roles = binder.bind(ENDPOINT_ROLES, Bindable.setOf(String.class)).orElse(Set.of());
		}
		return new EchoMqDashboardRoutes(dashboard, guard, security, properties.path(), show, roles,
				properties.refresh())
			.routes();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(CsrfToken.class)
	static class SpringSecurityConfiguration {

		@Bean
		@ConditionalOnMissingBean
		DashboardSecurity echoMqDashboardSecurity(EchoMqDashboardProperties properties) {
			return new SpringSecurityDashboardSecurity(properties.writeRole());
		}

	}

}
