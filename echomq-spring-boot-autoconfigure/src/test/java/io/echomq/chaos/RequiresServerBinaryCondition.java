package io.echomq.chaos;

import java.util.Optional;

import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Evaluates {@link RequiresServerBinary}.
 *
 * @author EchoMQ
 */
class RequiresServerBinaryCondition implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		Optional<RequiresServerBinary> required = AnnotationSupport.findAnnotation(context.getElement(),
				RequiresServerBinary.class);
		if (required.isEmpty()) {
			return ConditionEvaluationResult.enabled("no server binary required");
		}
		ServerFlavor flavor = required.get().value();
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			return ConditionEvaluationResult.enabled("CI requires " + flavor.serverExecutable());
		}
		if (ServerBinary.onPath(flavor).isPresent()) {
			return ConditionEvaluationResult.enabled(flavor.serverExecutable() + " is installed");
		}
		return ConditionEvaluationResult.disabled(flavor.serverExecutable() + " is not on PATH (and "
				+ flavor.serverVariable() + " is not set); outside CI this " + flavor.displayName()
				+ " suite is skipped: its Redis twin runs on the server a missing binary falls back to");
	}

}
