package io.echomq.test.queues;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Adds an {@link EchoMqTestQueues} bean to every test context, created when a test first
 * injects it, so a context without EchoMQ's beans (a web slice, say) starts as before.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class TestQueuesContextCustomizerFactory implements ContextCustomizerFactory {

	static final String BEAN_NAME = "echoMqTestQueues";

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new TestQueuesContextCustomizer();
	}

	private static final class TestQueuesContextCustomizer implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			if (!(context instanceof BeanDefinitionRegistry registry) || registry.containsBeanDefinition(BEAN_NAME)) {
				return;
			}
			RootBeanDefinition definition = new RootBeanDefinition(EchoMqTestQueues.class,
					() -> EchoMqTestQueues.of(context.getBeanFactory()));
			definition.setLazyInit(true);
			registry.registerBeanDefinition(BEAN_NAME, definition);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
