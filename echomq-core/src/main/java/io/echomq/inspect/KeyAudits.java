package io.echomq.inspect;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.QueueKeys;
import io.lettuce.core.RedisFuture;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The audit of a queue's keys that are not job locations: its unique keys against the
 * jobs they name, its batch rows against the batches location.
 *
 * @author EchoMQ
 */
final class KeyAudits {

	private static final Set<String> HOLDING = Set.of("pending", "schedule", "active");

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	KeyAudits(Keyspace keyspace, StringRedisTemplate template) {
		this.keyspace = keyspace;
		this.template = template;
	}

	/**
	 * Scan the queue's unique keys and check each against the job it names.
	 */
	void auditUniqueKeys(String queue, String rowPrefix, AuditReads.Findings findings) {
		String prefix = this.keyspace.uniqueKeyPrefix(queue);
		List<String> batch = new ArrayList<>(QueueAuditor.SCAN_COUNT);
		AuditReads.scanKeys(this.template, prefix, "*", (key) -> {
			batch.add(key);
			if (batch.size() == QueueAuditor.SCAN_COUNT) {
				checkUniqueKeys(rowPrefix, prefix, batch, findings);
				batch.clear();
			}
		});
		checkUniqueKeys(rowPrefix, prefix, batch, findings);
	}

	void auditBatches(String queue, AuditReads.Findings findings) {
		QueueKeys keys = QueueKeys.of(this.keyspace, queue);
		String location = keys.batches();
		if (!AuditReads.expectType(this.template, location, DataType.ZSET, "a sorted set", findings)) {
			return;
		}
		String rowPrefix = keys.batch("");
		for (long offset = 0;; offset += QueueAuditor.PAGE) {
			Set<String> page = this.template.opsForZSet().range(location, offset, offset + QueueAuditor.PAGE - 1);
			if (page == null || page.isEmpty()) {
				break;
			}
			for (String id : page) {
				DataType type = this.template.type(rowPrefix + id);
				if (type == null || type == DataType.NONE) {
					findings.add("batch " + id + " is in " + location + " but has no row");
				}
			}
			if (page.size() < QueueAuditor.PAGE) {
				break;
			}
		}
		AuditReads.scanKeys(this.template, rowPrefix, "*", (key) -> {
			String id = key.substring(rowPrefix.length());
			String state = batchState(key, findings);
			if (state == null) {
				return;
			}
			boolean listed = this.template.opsForZSet().score(location, id) != null;
			if (("open".equals(state) || "sealed".equals(state)) && !listed) {
				findings.add("batch " + id + " is " + state + " but not in " + location);
			}
			else if (!"open".equals(state) && !"sealed".equals(state) && listed) {
				findings.add("batch " + id + " is in " + location + " but its row says state=" + state);
			}
			if (!"open".equals(state) && !"sealed".equals(state) && !"finished".equals(state)) {
				findings.add("batch row " + key + " has state=" + state + ", not open, sealed or finished");
			}
		});
	}

	/**
	 * Read a batch row's state, reporting a row that is not a hash or whose counts are
	 * not integers.
	 * @return the state, {@code ""} for a row without one, {@code null} when there is no
	 * row or it is not a hash
	 */
	private @Nullable String batchState(String key, AuditReads.Findings findings) {
		DataType type = this.template.type(key);
		if (type == null || type == DataType.NONE) {
			return null;
		}
		if (type != DataType.HASH) {
			findings.add("batch row " + key + " is a " + type.code() + ", not a hash");
			return null;
		}
		List<String> row = this.template.<String, String>opsForHash()
			.multiGet(key, List.of("state", "total", "completed", "dead"));
		Long[] counts = new Long[3];
		for (int i = 1; i <= 3; i++) {
			String value = row.get(i);
			counts[i - 1] = (value != null) ? RowSchema.parse(value) : null;
			if (counts[i - 1] == null) {
				findings.add("batch row " + key + " field '" + List.of("state", "total", "completed", "dead").get(i)
						+ "' is " + ((value != null) ? "'" + value + "', " : "missing, ") + "not an integer");
			}
		}
		if (counts[0] != null && counts[1] != null && counts[2] != null && counts[1] + counts[2] > counts[0]) {
			findings.add("batch row " + key + " counts " + (counts[1] + counts[2]) + " finished jobs of a total of "
					+ counts[0]);
		}
		String state = row.get(0);
		return (state != null) ? state : "";
	}

	private void checkUniqueKeys(String rowPrefix, String prefix, List<String> keys, AuditReads.Findings findings) {
		if (keys.isEmpty()) {
			return;
		}
		List<@Nullable Object> replies = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(keys.size() * 2);
			for (String key : keys) {
				futures.add(commands.get(AuditReads.bytes(key)));
				futures.add(commands.pttl(AuditReads.bytes(key)));
			}
			return futures;
		});
		List<String[]> held = new ArrayList<>();
		for (int i = 0; i < keys.size(); i++) {
			String key = keys.get(i);
			Object value = replies.get(2 * i);
			if (value instanceof AuditReads.Failed) {
				findings.add("unique key " + key + " is not a string");
				continue;
			}
			String id = (value instanceof byte[] text) ? new String(text, StandardCharsets.UTF_8) : null;
			if (id == null) {
				continue;
			}
			if (!JobId.isValid(id)) {
				findings.add("unique key " + key + " holds '" + id + "', not a JOB id");
				continue;
			}
			boolean expires = replies.get(2 * i + 1) instanceof Long ttl && ttl >= 0;
			if (!expires) {
				held.add(new String[] { key, id });
			}
		}
		List<@Nullable Object> rows = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(held.size());
			for (String[] entry : held) {
				futures.add(commands.hmget(AuditReads.bytes(rowPrefix + entry[1]), AuditReads.bytes("state"),
						AuditReads.bytes(EnqueueSpec.UNIQUE_FIELD)));
			}
			return futures;
		});
		for (int i = 0; i < held.size(); i++) {
			String key = held.get(i)[0];
			String id = held.get(i)[1];
			String name = key.substring(prefix.length());
			Object result = rows.get(i);
			if (result instanceof AuditReads.Failed) {
				findings.add("unique key " + key + " points at " + id + ", whose row is not a hash");
				continue;
			}
			List<@Nullable String> fields = AuditReads.values(result);
			String state = fields.get(0);
			if (state == null) {
				findings.add("unique key " + key + " points at " + id + ", which has no row (leaked key)");
			}
			else if (!name.equals(fields.get(1))) {
				findings.add("unique key " + key + " points at " + id + ", whose row does not name it (unique="
						+ fields.get(1) + ")");
			}
			else if (!HOLDING.contains(state)) {
				findings.add("unique key " + key + " points at " + id + ", which is " + state
						+ " (its key should have been released)");
			}
		}
	}

}
