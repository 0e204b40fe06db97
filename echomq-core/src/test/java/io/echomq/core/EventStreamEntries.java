package io.echomq.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Reading a queue's job event stream in tests: its entries, the event types heard for a
 * job, one event's fields, and the gapless ids the entries should carry.
 *
 * @author EchoMQ
 */
final class EventStreamEntries {

	private EventStreamEntries() {
	}

	static List<MapRecord<String, Object, Object>> read(StringRedisTemplate redis, String key) {
		return redis.opsForStream().range(key, Range.unbounded());
	}

	static List<String> typesOf(List<MapRecord<String, Object, Object>> entries, JobId id) {
		return entries.stream()
			.filter((entry) -> id.toString().equals(entry.getValue().get("id")))
			.map((entry) -> (String) entry.getValue().get("type"))
			.toList();
	}

	static Map<Object, Object> entryOf(List<MapRecord<String, Object, Object>> entries, JobId id, String type) {
		return entries.stream()
			.filter((entry) -> id.toString().equals(entry.getValue().get("id"))
					&& type.equals(entry.getValue().get("type")))
			.findFirst()
			.orElseThrow()
			.getValue();
	}

	static List<String> sequence(int from, int to) {
		List<String> sequence = new ArrayList<>();
		for (int i = from; i <= to; i++) {
			sequence.add(i + "-0");
		}
		return sequence;
	}

}
