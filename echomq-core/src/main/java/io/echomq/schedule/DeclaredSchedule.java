package io.echomq.schedule;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A schedule the application declares (by annotation or property), put in the store at
 * start-up.
 *
 * @param definition the definition
 * @param payload computes the payload of each occurrence (an annotated method that
 * returns it), or {@code null} to use the definition's constant payload
 * @param source what declared it, for messages (e.g. the annotated method)
 * @author EchoMQ
 * @since 0.1.0
 */
public record DeclaredSchedule(ScheduleDefinition definition, @Nullable Supplier<@Nullable Object> payload,
		String source) {

	/**
	 * Validate the declaration.
	 * @param definition the definition
	 * @param payload the payload supplier
	 * @param source the source
	 */
	public DeclaredSchedule {
		if (definition == null || !definition.origin().isDeclared()) {
			throw new InvalidScheduleException(
					"A declared schedule needs a declared origin, was " + definition + " from " + source);
		}
	}

}
