package io.echomq.schedule;

import java.util.regex.Pattern;

import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.Keyspace;

/**
 * A recurring schedule as the store holds it: the queue its occurrences go to, its name
 * (unique within the queue), when it fires, the payload of each occurrence (already
 * converted to text), and where it was declared.
 *
 * @param queue the queue the occurrences are enqueued to
 * @param name the schedule name, 1-128 characters of {@code [A-Za-z0-9._-]}
 * @param spec when it fires
 * @param payload the payload text of each occurrence
 * @param origin where it was declared
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleDefinition(String queue, String name, ScheduleSpec spec, String payload, ScheduleOrigin origin) {

	/** Maximum length of a schedule name. */
	public static final int MAX_NAME_LENGTH = 128;

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_NAME_LENGTH + "}");

	/**
	 * Validate the definition.
	 * @param queue the queue
	 * @param name the name
	 * @param spec the spec
	 * @param payload the payload text
	 * @param origin the origin
	 * @throws InvalidScheduleException naming the bad value
	 */
	public ScheduleDefinition {
		validateName(name);
		validateQueue(name, queue);
		if (spec == null) {
			throw new InvalidScheduleException("Schedule '" + name + "' needs a spec (cron or every)");
		}
		if (payload == null) {
			throw new InvalidScheduleException("Schedule '" + name + "' needs a payload");
		}
		if (origin == null) {
			throw new InvalidScheduleException("Schedule '" + name + "' needs an origin");
		}
	}

	/**
	 * Validate a schedule name.
	 * @param name the name
	 * @return the name
	 * @throws InvalidScheduleException if it is not 1-128 characters of
	 * {@code [A-Za-z0-9._-]}
	 */
	public static String validateName(String name) {
		if (name == null || !NAME.matcher(name).matches()) {
			throw new InvalidScheduleException("Invalid schedule name '" + name + "': must be 1-" + MAX_NAME_LENGTH
					+ " characters of letters, digits, '.', '_' and '-'");
		}
		return name;
	}

	/**
	 * Validate the queue of a schedule.
	 * @param name the schedule name, for the message
	 * @param queue the queue name
	 * @return the queue name
	 * @throws InvalidScheduleException naming the queue if it is not a valid queue name
	 */
	public static String validateQueue(String name, String queue) {
		try {
			return Keyspace.validateQueueName(queue);
		}
		catch (InvalidQueueNameException ex) {
			throw new InvalidScheduleException(
					"Schedule '" + name + "' has an invalid queue '" + queue + "': " + ex.getMessage(), ex);
		}
	}

}
