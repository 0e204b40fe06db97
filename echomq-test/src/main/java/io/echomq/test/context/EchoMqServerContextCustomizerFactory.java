package io.echomq.test.context;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Creates an {@link EchoMqServerContextCustomizer} for test classes annotated (or whose
 * enclosing class is annotated) with {@link AutoConfigureEchoMqServer}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class EchoMqServerContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		AutoConfigureEchoMqServer annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				AutoConfigureEchoMqServer.class);
		if (annotation == null) {
			return null;
		}
		if (annotation.flavor().length > 1) {
			throw new IllegalStateException("@AutoConfigureEchoMqServer on " + testClass.getName()
					+ " names more than one flavor " + List.of(annotation.flavor()) + "; name at most one");
		}
		return new EchoMqServerContextCustomizer((annotation.flavor().length == 1) ? annotation.flavor()[0] : null,
				annotation.shared());
	}

}
