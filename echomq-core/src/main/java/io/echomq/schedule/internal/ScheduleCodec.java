package io.echomq.schedule.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * A schedule's definition as the store keeps it: a JSON object in the queue's
 * {@code schedules} hash, the schedule's record. Fields at their defaults (overlap
 * {@code ALLOW}, the default catch-up count, no start or end, not paused) are left out,
 * so a record written before they existed reads as their defaults and the same definition
 * still gives the same text. A paused record starts with {@value #PAUSED_PREFIX}: the
 * scripts that must keep the pause when a definition is put again
 * ({@code reschedule.lua}) read it from that prefix.
 *
 * @author EchoMQ
 */
final class ScheduleCodec {

	/** How the text of a paused schedule's record starts. */
	static final String PAUSED_PREFIX = "{\"paused\":true,";

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private ScheduleCodec() {
	}

	/**
	 * Return the text the store keeps: the same definition always gives the same text.
	 * @param definition the definition
	 * @return the definition as JSON
	 */
	static String encode(ScheduleDefinition definition) {
		return encode(definition, false);
	}

	/**
	 * Return the text the store keeps, paused or not.
	 * @param definition the definition
	 * @param paused whether the schedule is paused
	 * @return the definition as JSON, starting with {@value #PAUSED_PREFIX} when paused
	 */
	static String encode(ScheduleDefinition definition, boolean paused) {
		Map<String, Object> fields = new LinkedHashMap<>();
		if (paused) {
			fields.put("paused", true);
		}
		ScheduleSpec spec = definition.spec();
		if (spec.cron() != null) {
			fields.put("cron", spec.cron());
		}
		if (spec.every() != null) {
			fields.put("every", spec.every().toString());
		}
		fields.put("zone", spec.zone().getId());
		fields.put("misfire", spec.misfire().name());
		if (spec.maxCatchUp() != ScheduleSpec.DEFAULT_CATCH_UP) {
			fields.put("catchUp", spec.maxCatchUp());
		}
		if (spec.overlap() != OverlapPolicy.ALLOW) {
			fields.put("overlap", spec.overlap().name());
		}
		if (spec.start() != null) {
			fields.put("start", spec.start().toString());
		}
		if (spec.end() != null) {
			fields.put("end", spec.end().toString());
		}
		fields.put("payload", definition.payload());
		fields.put("origin", definition.origin().name());
		return MAPPER.writeValueAsString(fields);
	}

	/**
	 * Return whether a stored record is paused.
	 * @param text the stored text
	 * @return whether it starts with {@value #PAUSED_PREFIX}
	 */
	static boolean paused(String text) {
		return text.startsWith(PAUSED_PREFIX);
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
			Object catchUp = fields.get("catchUp");
			Object overlap = fields.get("overlap");
			Object start = fields.get("start");
			Object end = fields.get("end");
			ScheduleSpec spec = new ScheduleSpec(cron, (every != null) ? Duration.parse(every) : null,
					ScheduleSpec.zone(String.valueOf(fields.get("zone"))),
					MisfirePolicy.valueOf(String.valueOf(fields.get("misfire"))),
					(catchUp != null) ? ((Number) catchUp).intValue() : ScheduleSpec.DEFAULT_CATCH_UP,
					(overlap != null) ? OverlapPolicy.valueOf(String.valueOf(overlap)) : OverlapPolicy.ALLOW,
					(start != null) ? Instant.parse(String.valueOf(start)) : null,
					(end != null) ? Instant.parse(String.valueOf(end)) : null);
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
