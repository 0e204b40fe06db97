package io.echomq.schedule.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A schedule's definition as the store keeps it: a JSON object in the queue's
 * {@code schedules} hash.
 *
 * @author EchoMQ
 */
final class ScheduleCodec {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private ScheduleCodec() {
	}

	/**
	 * Return the text the store keeps: the same definition always gives the same text.
	 * @param definition the definition
	 * @return the definition as JSON
	 */
	static String encode(ScheduleDefinition definition) {
		Map<String, Object> fields = new LinkedHashMap<>();
		if (definition.spec().cron() != null) {
			fields.put("cron", definition.spec().cron());
		}
		if (definition.spec().every() != null) {
			fields.put("every", definition.spec().every().toString());
		}
		fields.put("zone", definition.spec().zone().getId());
		fields.put("misfire", definition.spec().misfire().name());
		fields.put("payload", definition.payload());
		fields.put("origin", definition.origin().name());
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
	static ScheduleDefinition decode(String queue, String name, String text) {
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
