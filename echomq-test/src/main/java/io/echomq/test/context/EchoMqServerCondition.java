package io.echomq.test.context;

import java.util.Optional;

import io.echomq.test.TestRedisServer;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Skips a test class whose {@link AutoConfigureEchoMqServer} names a flavor that is not
 * available, with the reason, before its context is loaded; on CI the class runs and the
 * missing binary fails it.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see TestRedisServer#unavailability(io.echomq.test.server.ServerFlavor)
 */
class EchoMqServerCondition implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		Optional<Class<?>> testClass = context.getTestClass();
		AutoConfigureEchoMqServer annotation = testClass
			.map((type) -> TestContextAnnotationUtils.findMergedAnnotation(type, AutoConfigureEchoMqServer.class))
			.orElse(null);
		if (annotation == null || annotation.flavor().length != 1) {
			return ConditionEvaluationResult.enabled("no server flavor asked for");
		}
		return TestRedisServer.unavailability(annotation.flavor()[0])
			.map(ConditionEvaluationResult::disabled)
			.orElseGet(() -> ConditionEvaluationResult.enabled(annotation.flavor()[0] + " is available"));
	}

}
