package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * Checks a queue's keyspace against the engine's invariants: every id in exactly one
 * location, its row's {@code state} naming that location, no orphan rows or ids, and no
 * active lease overdue beyond the reap tolerance.
 * <p>
 * The audit reads the keys one after another, so it is exact only for a quiescent
 * queue (at the end of a test, or with listeners paused); on a busy queue a job that
 * moves between two reads may be reported.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class QueueAuditor {

	private static final int SCAN_COUNT = 1000;

	private final Jobs jobs;

	private final StringRedisTemplate template;

	/**
	 * Create an auditor.
	 * @param jobs the engine whose keyspace is audited
	 */
	public QueueAuditor(Jobs jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.jobs = jobs;
		this.template = jobs.executor().getTemplate();
	}

	/**
	 * Audit a queue.
	 * @param queue the queue
	 * @param reapTolerance how far past its lease deadline an active id may be before it
	 * is reported (the reap interval plus slack)
	 * @return the report
	 */
	public AuditReport audit(String queue, Duration reapTolerance) {
		Keyspace keyspace = this.jobs.keyspace();
		List<String> violations = new ArrayList<>();
		Map<String, JobState> location = new HashMap<>();
		Map<JobState, Long> counts = new EnumMap<>(JobState.class);
		long overdueBefore = -1;
		for (JobState state : JobState.values()) {
			Set<TypedTuple<String>> members = this.template.opsForZSet()
				.rangeWithScores(keyspace.queueKey(queue, state.location()), 0, -1);
			counts.put(state, (members != null) ? (long) members.size() : 0L);
			if (members == null) {
				continue;
			}
			if (state == JobState.ACTIVE && !members.isEmpty()) {
				overdueBefore = serverTime() - reapTolerance.toMillis();
			}
			for (TypedTuple<String> member : members) {
				String id = member.getValue();
				if (id == null || !JobId.isValid(id)) {
					violations.add("'" + id + "' in " + state.value() + " is not a valid JOB id");
					continue;
				}
				JobState previous = location.putIfAbsent(id, state);
				if (previous != null) {
					violations.add(id + " is in both " + previous.value() + " and " + state.value());
				}
				if (state == JobState.ACTIVE && member.getScore() != null && member.getScore() < overdueBefore) {
					violations.add(id + " is active past its lease deadline by more than " + reapTolerance);
				}
			}
		}
		Set<String> rows = rowIds(queue);
		for (String id : rows) {
			if (!location.containsKey(id)) {
				violations.add("row of " + id + " is in no location (orphan row)");
			}
		}
		for (Map.Entry<String, JobState> entry : location.entrySet()) {
			String id = entry.getKey();
			if (!rows.contains(id)) {
				violations.add(id + " in " + entry.getValue().value() + " has no row");
				continue;
			}
			Object state = this.template.opsForHash().get(keyspace.jobKey(queue, id), "state");
			if (!entry.getValue().value().equals(state)) {
				violations.add(id + " is in " + entry.getValue().value() + " but its row says state=" + state);
			}
		}
		return new AuditReport(queue, counts, rows.size(), violations);
	}

	private long serverTime() {
		Long time = this.template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				return cluster.serverCommands().time();
			}
			return connection.serverCommands().time();
		});
		return (time != null) ? time : System.currentTimeMillis();
	}

	private Set<String> rowIds(String queue) {
		String prefix = this.jobs.keyspace().jobKeyPrefix(queue);
		ScanOptions options = ScanOptions.scanOptions().match(escapeGlob(prefix) + "*").count(SCAN_COUNT).build();
		Set<String> ids = new HashSet<>();
		this.template.execute((RedisCallback<Void>) (connection) -> {
			try (Cursor<byte[]> cursor = scan(connection, prefix, options)) {
				while (cursor.hasNext()) {
					ids.add(new String(cursor.next(), StandardCharsets.UTF_8).substring(prefix.length()));
				}
			}
			return null;
		});
		return ids;
	}

	private static Cursor<byte[]> scan(RedisConnection connection, String prefix, ScanOptions options) {
		if (connection instanceof RedisClusterConnection cluster) {
			byte[] key = prefix.getBytes(StandardCharsets.UTF_8);
			RedisClusterNode node = cluster.clusterGetNodeForKey(key);
			return cluster.scan(node, options);
		}
		return connection.keyCommands().scan(options);
	}

	private static String escapeGlob(String text) {
		StringBuilder escaped = new StringBuilder(text.length() + 4);
		for (char c : text.toCharArray()) {
			if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
				escaped.append('\\');
			}
			escaped.append(c);
		}
		return escaped.toString();
	}

}
