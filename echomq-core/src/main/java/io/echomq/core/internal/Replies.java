package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

/**
 * Decodes raw script replies (lists of {@code byte[]} and {@code Long}). Internal: the
 * engine's parts and the core's readers share it.
 *
 * @author EchoMQ
 */
public final class Replies {

	private Replies() {
	}

	public static String string(@Nullable Object value) {
		if (value instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		return String.valueOf(value);
	}

	public static long number(@Nullable Object value) {
		if (value instanceof Long number) {
			return number;
		}
		return Long.parseLong(string(value));
	}

	public static Instant instant(@Nullable Object value) {
		return Instant.ofEpochMilli(number(value));
	}

	@SuppressWarnings("unchecked")
	public static List<Object> list(@Nullable Object value) {
		return (value instanceof List<?> list) ? (List<Object>) list : List.of();
	}

	public static Map<String, String> hash(@Nullable Object value) {
		List<Object> flat = list(value);
		Map<String, String> map = new LinkedHashMap<>(flat.size());
		for (int i = 0; i + 1 < flat.size(); i += 2) {
			map.put(string(flat.get(i)), string(flat.get(i + 1)));
		}
		return map;
	}

	/**
	 * Decode a flat {@code {member, reason, ...}} list.
	 */
	public static Map<String, String> reasons(@Nullable Object value) {
		return hash(value);
	}

	public static TransitionResult fenced(List<Object> reply) {
		if (reply.isEmpty() || number(reply.get(0)) != 1) {
			return TransitionResult.stale(StaleReason.fromCode(string(reply.get(1))),
					(reply.size() > 2) ? string(reply.get(2)) : "");
		}
		return TransitionResult.applied(null, null);
	}

}
