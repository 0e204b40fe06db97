package io.echomq.autoconfigure;

import io.echomq.core.EchoMqEngine;
import io.echomq.micrometer.EchoMqListenerObservationConvention;
import io.echomq.micrometer.EchoMqTemplateObservationConvention;
import io.echomq.micrometer.ObservationEnqueueInterceptor;
import io.echomq.micrometer.ObservationJobInvocationInterceptor;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of EchoMQ's Micrometer observations, each opt-in: the template's
 * ({@code echomq.template.observation-enabled}), which stores the trace context on the
 * job rows, and the listeners' ({@code echomq.listener.observation-enabled}), which
 * continues it around each handler invocation.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@AutoConfiguration(after = EchoMqAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean({ EchoMqEngine.class, ObservationRegistry.class })
public final class EchoMqObservationAutoConfiguration {

	EchoMqObservationAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("echomq.template.observation-enabled")
	ObservationEnqueueInterceptor echoMqObservationEnqueueInterceptor(ObservationRegistry registry,
			ObjectProvider<EchoMqTemplateObservationConvention> convention) {
		return new ObservationEnqueueInterceptor(registry, convention.getIfUnique());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty("echomq.listener.observation-enabled")
	ObservationJobInvocationInterceptor echoMqObservationJobInvocationInterceptor(ObservationRegistry registry,
			ObjectProvider<EchoMqListenerObservationConvention> convention) {
		return new ObservationJobInvocationInterceptor(registry, convention.getIfUnique());
	}

}
