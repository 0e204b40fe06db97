package io.echomq.inspect;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;

import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The lanes of a queue paused by an operator ({@code EchoMqAdmin.pauseLane}): the
 * {@code paused:<lane>} fields of its {@link KeyType#LANE_CONTROLS} hash. A paused lane
 * is out of the ring while its jobs stay pending, so the readers that walk the ring (lane
 * sizes, the audit, the backlog) add or leave out these lanes.
 *
 * @author EchoMQ
 */
final class PausedLanes {

	private static final String FIELD = "paused:";

	private PausedLanes() {
	}

	/**
	 * Return the lanes of a ring, in ring order, then the paused lanes not in it (a
	 * paused lane is out of the ring while its jobs stay pending).
	 */
	static Set<String> withRing(@Nullable Set<String> ring, StringRedisTemplate template, Keyspace keyspace,
			String queue) {
		Set<String> all = new LinkedHashSet<>((ring != null) ? ring : Set.of());
		all.addAll(read(template, keyspace, queue));
		return all;
	}

	/**
	 * Return the paused lanes of a queue (or partition), none when its controls key is
	 * absent or not a hash.
	 */
	static Set<String> read(StringRedisTemplate template, Keyspace keyspace, String queue) {
		String controls = keyspace.queueKey(queue, KeyType.LANE_CONTROLS.suffix());
		Set<String> paused = new TreeSet<>();
		if (template.type(controls) != DataType.HASH) {
			return paused;
		}
		for (Object field : template.opsForHash().keys(controls)) {
			String name = String.valueOf(field);
			if (name.startsWith(FIELD)) {
				paused.add(name.substring(FIELD.length()));
			}
		}
		return paused;
	}

}
