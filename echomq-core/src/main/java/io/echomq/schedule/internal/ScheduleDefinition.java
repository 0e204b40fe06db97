package io.echomq.schedule.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.Keyspace;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

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

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

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

	/**
	 * Return the text the store keeps: the same definition always gives the same text.
	 * @return the definition as JSON
	 */
	public String encode() {
		Map<String, Object> fields = new LinkedHashMap<>();
		if (this.spec.cron() != null) {
			fields.put("cron", this.spec.cron());
		}
		if (this.spec.every() != null) {
			fields.put("every", this.spec.every().toString());
		}
		fields.put("zone", this.spec.zone().getId());
		fields.put("misfire", this.spec.misfire().name());
		fields.put("payload", this.payload);
		fields.put("origin", this.origin.name());
		return MAPPER.writeValueAsString(fields);
	}

	/**
	 * Read a definition the store keeps.
	 * @param queue the queue whose store holds it
	 * @param name the schedule name
	 * @param text the stored text
	 * @return the definition
	 * @throws InvalidScheduleException if the text is not a valid definition
	 */
	public static ScheduleDefinition decode(String queue, String name, String text) {
		Map<?, ?> fields;
		try {
			fields = MAPPER.readValue(text, Map.class);
		}
		catch (JacksonException ex) {
			throw new InvalidScheduleException("Schedule '" + name + "' of queue '" + queue
					+ "' has an unreadable definition: " + ex.getOriginalMessage(), ex);
		}
		try {
			String cron = (String) fields.get("cron");
			String every = (String) fields.get("every");
			ScheduleSpec spec = new ScheduleSpec(cron, (every != null) ? Duration.parse(every) : null,
					ScheduleSpec.zone(String.valueOf(fields.get("zone"))),
					MisfirePolicy.valueOf(String.valueOf(fields.get("misfire"))));
			return new ScheduleDefinition(queue, name, spec, String.valueOf(fields.get("payload")),
					ScheduleOrigin.valueOf(String.valueOf(fields.get("origin"))));
		}
		catch (RuntimeException ex) {
			if (ex instanceof InvalidScheduleException invalid) {
				throw invalid;
			}
			throw new InvalidScheduleException(
					"Schedule '" + name + "' of queue '" + queue + "' has an invalid definition: " + ex, ex);
		}
	}

}
