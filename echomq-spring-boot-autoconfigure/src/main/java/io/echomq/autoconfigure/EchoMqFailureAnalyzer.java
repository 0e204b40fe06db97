package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

import io.echomq.schedule.InvalidScheduleException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;
import org.springframework.util.unit.DataSize;

/**
 * Turns EchoMQ's configuration errors into Boot's "APPLICATION FAILED TO START" report,
 * with what is wrong and what to do, instead of a stack of bean-creation errors: an
 * invalid {@code echomq.*} value (a bad duration, a value out of range), an invalid
 * schedule (a bad cron), an unknown or renamed key when
 * {@code echomq.fail-on-unknown-properties} is set, and an encrypted queue without keys.
 *
 * @author EchoMQ
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
final class EchoMqFailureAnalyzer implements FailureAnalyzer {

	private static final String SCHEDULE_ACTION = """
			Correct the schedule named above. A cron expression has six fields with seconds \
			(second minute hour day-of-month month day-of-week, e.g. '0 0 3 * * *' for 03:00 every day) \
			or is a macro such as @hourly or @daily; set exactly one of cron and every, and the zone as an id \
			such as UTC or Europe/Paris.""";

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		EchoMqConfigurationException configuration = find(failure, EchoMqConfigurationException.class);
		if (configuration != null) {
			return new FailureAnalysis(String.valueOf(configuration.getMessage()), configuration.getAction(),
					configuration);
		}
		InvalidScheduleException schedule = find(failure, InvalidScheduleException.class);
		if (schedule != null) {
			return new FailureAnalysis("An EchoMQ schedule is invalid: " + schedule.getMessage(), SCHEDULE_ACTION,
					schedule);
		}
		BindException bind = find(failure, BindException.class);
		if (bind != null && bind.getName().toString().startsWith("echomq.")) {
			return analyze(bind);
		}
		return null;
	}

	private static FailureAnalysis analyze(BindException bind) {
		ConfigurationProperty property = bind.getProperty();
		Throwable reason = rootCause(bind);
		String name = (property != null) ? property.getName().toString() : named(reason, bind);
		StringBuilder description = new StringBuilder("Invalid EchoMQ property '").append(name).append("'");
		if (property != null) {
			description.append(" = '").append(property.getValue()).append("'");
			Origin origin = property.getOrigin();
			if (origin != null) {
				description.append(" (from ").append(origin).append(")");
			}
		}
		description.append(": ").append(reason.getMessage());
		String expected = (property != null) ? expected(bind.getTarget().getType()) : null;
		String action = (expected != null) ? "Set " + name + " to " + expected + "."
				: "Correct " + name + " as the reason above says (each echomq.* key, its type and its range "
						+ "are listed in docs/operations.md, Configuration).";
		return new FailureAnalysis(description.toString(), action, bind);
	}

	/**
	 * A value check names its property first: {@code echomq.listener.lease must be ...}.
	 */
	private static String named(Throwable reason, BindException bind) {
		String message = reason.getMessage();
		if (message != null && message.startsWith("echomq.") && message.indexOf(' ') > 0) {
			String named = message.substring(0, message.indexOf(' '));
			// a per-queue check names echomq.queues.*: the bound name has the queue
			String bound = bind.getName().toString();
			if (named.startsWith("echomq.queues.*.") && bound.startsWith("echomq.queues.")
					&& bind.getName().getNumberOfElements() > 2) {
				return "echomq.queues." + bind.getName().getElement(2, Form.ORIGINAL)
						+ named.substring("echomq.queues.*".length());
			}
			return named;
		}
		return bind.getName().toString();
	}

	/** What a value of the bound type looks like, for a value that could not convert. */
	private static @Nullable String expected(ResolvableType type) {
		Class<?> target = type.resolve();
		if (target == null) {
			return null;
		}
		if (Duration.class.equals(target)) {
			return "a duration such as 500ms, 30s, 5m, 2h or 1d (or ISO-8601, e.g. PT30S)";
		}
		if (DataSize.class.equals(target)) {
			return "a size such as 512B, 64KB or 1MB";
		}
		if (target.isEnum()) {
			return "one of " + Arrays.stream(target.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase().replace('_', '-'))
				.collect(Collectors.joining(", "));
		}
		if (Boolean.class.equals(target) || boolean.class.equals(target)) {
			return "true or false";
		}
		if (Number.class.isAssignableFrom(target) || (target.isPrimitive() && !char.class.equals(target))) {
			return "a number in the range the reason gives";
		}
		return null;
	}

	private static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
			if (candidate.getCause() == candidate) {
				break;
			}
		}
		return null;
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

}
