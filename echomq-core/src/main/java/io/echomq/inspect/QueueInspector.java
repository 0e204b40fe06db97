package io.echomq.inspect;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.LaneKeyType;
import io.echomq.core.internal.Replies;
import io.echomq.core.internal.Results;
import io.echomq.core.internal.RowPayload;
import io.echomq.core.internal.Script;
import io.echomq.core.internal.ScriptExecutor;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * Reads queue state for dashboards and endpoints: location sizes, counters, pages of the
 * jobs in a location, job rows. Reads only; never part of a transition.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class QueueInspector {

	/** Most jobs one {@linkplain #jobs(String, JobState, int, int) page} returns. */
	public static final int MAX_PAGE = 500;

	private static final int LANE_CHUNK = 500;

	private static final Script LANE_SIZES = Script.load("lane_sizes");

	private static final Script STARTS_IN_WINDOW = Script.load("starts_in_window");

	private final Keyspace keyspace;

	private final ScriptExecutor executor;

	private final StringRedisTemplate template;

	private final Results results;

	private final List<Script> scripts;

	/**
	 * Create an inspector.
	 * @param engine the engine whose keyspace is read
	 */
	public QueueInspector(EchoMqEngine engine) {
		Engine jobs = Engine.of(engine);
		this.keyspace = jobs.keyspace();
		this.executor = jobs.executor();
		this.template = this.executor.getTemplate();
		this.results = jobs.results();
		this.scripts = jobs.scripts();
	}

	/**
	 * Return the cluster master serving a queue's slot, from the client's cached
	 * topology.
	 * @param queue the queue, or a partition name
	 * @return {@code host:port}, or {@code null} on a server that is not a cluster
	 * @since 0.4.0
	 */
	public @Nullable String server(String queue) {
		if (!this.executor.isCluster()) {
			return null;
		}
		int slot = QueuePartitions.slot("{" + QueuePartitions.validateEngineName(queue) + "}");
		return this.template.execute((RedisCallback<@Nullable String>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				RedisClusterNode node = cluster.clusterGetNodeForSlot(slot);
				return (node != null) ? node.getHost() + ":" + node.getPort() : null;
			}
			return null;
		});
	}

	/**
	 * Return each script the engine runs, by name, and whether the server has it cached
	 * ({@code SCRIPT EXISTS}); a script it has not is loaded by its next call.
	 * @return whether each script is cached, in the engine's order
	 * @since 0.4.0
	 */
	public Map<String, Boolean> scripts() {
		List<Script> all = this.scripts;
		String[] shas = all.stream().map(Script::sha).toArray(String[]::new);
		List<Boolean> exists = this.template
			.execute((RedisCallback<List<Boolean>>) (connection) -> connection.scriptingCommands().scriptExists(shas));
		Map<String, Boolean> cached = new LinkedHashMap<>();
		for (int i = 0; i < all.size(); i++) {
			cached.put(all.get(i).name(), exists != null && i < exists.size() && Boolean.TRUE.equals(exists.get(i)));
		}
		return cached;
	}

	/**
	 * Return the stored result of a completed job as its text (as the queue's converter
	 * wrote it, sealed on an encrypted queue).
	 * @param queue the queue, or a partition name
	 * @param id the job id
	 * @return the result text, or {@code null} when the job has no result (yet)
	 * @since 0.4.0
	 */
	public @Nullable String result(String queue, JobId id) {
		return this.results.read(queue, id);
	}

	/**
	 * Return a snapshot of a queue.
	 * @param queue the queue
	 * @return the snapshot
	 */
	public QueueStats stats(String queue) {
		long[] sizes = new long[JobState.values().length];
		for (JobState state : JobState.values()) {
			Long size = this.template.opsForZSet().zCard(this.keyspace.locationKey(queue, state));
			sizes[state.ordinal()] = (size != null) ? size : 0;
		}
		Map<Object, Object> raw = this.template.opsForHash()
			.entries(this.keyspace.queueKey(queue, KeyType.METRICS.suffix()));
		Map<String, Long> counters = new LinkedHashMap<>();
		raw.forEach((name, value) -> {
			// a counter that is not an integer is left out here; the audit reports it
			Long number = RowSchema.parse(String.valueOf(value));
			if (number != null) {
				counters.put(String.valueOf(name), number);
			}
		});
		Map<String, Long> lanes = laneSizes(queue);
		long inLanes = lanes.values().stream().mapToLong(Long::longValue).sum();
		return new QueueStats(queue, sizes[JobState.PENDING.ordinal()] + inLanes, sizes[JobState.ACTIVE.ordinal()],
				sizes[JobState.SCHEDULE.ordinal()], sizes[JobState.DEAD.ordinal()],
				sizes[JobState.QUARANTINE.ordinal()], sizes[JobState.COMPLETED.ordinal()], counters, lanes,
				sizes[JobState.WAITING.ordinal()], batches(queue));
	}

	private long batches(String queue) {
		Long size = this.template.opsForZSet().zCard(this.keyspace.queueKey(queue, KeyType.BATCHES.suffix()));
		return (size != null) ? size : 0;
	}

	/** Most minutes the per-minute series keeps (the scripts trim older ones). */
	public static final int MINUTES_KEPT = 120;

	/**
	 * Return a queue's per-minute series over the last {@code minutes} minutes of server
	 * time (the current minute included), oldest first, one entry per minute that had any
	 * work: one {@code HGETALL} of a hash of at most {@code 2 * (MINUTES_KEPT + 1)}
	 * fields, and the server's {@code TIME}.
	 * @param queue the queue
	 * @param minutes how many minutes back, 1 to {@value #MINUTES_KEPT}
	 * @return the minutes
	 * @throws IllegalArgumentException if {@code minutes} is out of range
	 */
	public List<MinuteCount> minutes(String queue, int minutes) {
		Assert.isTrue(minutes > 0 && minutes <= MINUTES_KEPT,
				() -> "minutes must be between 1 and " + MINUTES_KEPT + ", was " + minutes);
		Map<Object, Object> raw = this.template.opsForHash()
			.entries(this.keyspace.queueKey(queue, KeyType.MINUTES.suffix()));
		long now = serverTime() / 60_000;
		long first = now - minutes + 1;
		TreeMap<Long, long[]> counts = new TreeMap<>();
		raw.forEach((name, value) -> {
			String field = String.valueOf(name);
			int colon = field.indexOf(':');
			Long minute = (colon > 0) ? RowSchema.parse(field.substring(0, colon)) : null;
			Long count = RowSchema.parse(String.valueOf(value));
			if (minute == null || count == null || minute < first || minute > now) {
				return;
			}
			String kind = field.substring(colon + 1);
			int slot = kind.equals("completed") ? 0 : (kind.equals("failed") ? 1 : -1);
			if (slot >= 0) {
				counts.computeIfAbsent(minute, (key) -> new long[2])[slot] += count;
			}
		});
		List<MinuteCount> series = new ArrayList<>(counts.size());
		counts.forEach(
				(minute, pair) -> series.add(new MinuteCount(Instant.ofEpochMilli(minute * 60_000), pair[0], pair[1])));
		return series;
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

	/**
	 * Return how many jobs each lane with ready work has pending, in ring order, read
	 * {@value #LANE_CHUNK} lanes per script call.
	 * @param queue the queue
	 * @return pending ids per lane; empty for a queue without lanes
	 */
	public Map<String, Long> laneSizes(String queue) {
		Set<String> ring = this.template.opsForZSet()
			.range(this.keyspace.queueKey(queue, KeyType.LANES.suffix()), 0, -1);
		Map<String, Long> sizes = new LinkedHashMap<>();
		Set<String> all = PausedLanes.withRing(ring, this.template, this.keyspace, queue);
		if (all.isEmpty()) {
			return sizes;
		}
		List<String> lanes = new ArrayList<>();
		for (String lane : all) {
			try {
				Keyspace.validateLane(lane);
				lanes.add(lane);
			}
			catch (InvalidQueueNameException ex) {
				// the audit reports it
			}
		}
		for (int start = 0; start < lanes.size(); start += LANE_CHUNK) {
			List<String> chunk = lanes.subList(start, Math.min(lanes.size(), start + LANE_CHUNK));
			List<String> keys = chunk.stream()
				.map((lane) -> this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING.suffix()))
				.toList();
			List<Object> reply = this.executor.execute(LANE_SIZES, keys, List.of());
			for (int i = 0; i < chunk.size(); i++) {
				long size = Replies.number(reply.get(i));
				if (size > 0 || (ring != null && ring.contains(chunk.get(i)))) {
					sizes.put(chunk.get(i), size);
				}
			}
		}
		return sizes;
	}

	/**
	 * Return how many jobs started, on every node, in the rate limit's window that ends
	 * now on server time: the current use of a {@link FlowLimits#rateLimit() rate limit}
	 * of that period, counted in the log the claim scripts keep (so 0 for a queue whose
	 * listeners run without a rate limit).
	 * @param queue the queue (an engine name: one partition of a partitioned queue)
	 * @param period the rate limit's period
	 * @return the starts in the window
	 */
	public long startedInWindow(String queue, Duration period) {
		Assert.isTrue(period != null && period.toMillis() > 0, () -> "period must be at least 1ms, was " + period);
		List<Object> reply = this.executor.execute(STARTS_IN_WINDOW,
				List.of(this.keyspace.queueKey(queue, KeyType.STARTS.suffix())),
				List.of(Long.toString(period.toMillis())));
		return Replies.number(reply.get(1));
	}

	/**
	 * Return a page of dead jobs, most recent first.
	 * @param queue the queue
	 * @param offset how many to skip
	 * @param limit the page size
	 * @return the dead jobs
	 */
	public List<JobView> dead(String queue, int offset, int limit) {
		Assert.isTrue(offset >= 0, "offset must not be negative");
		Assert.isTrue(limit > 0, "limit must be positive");
		Set<TypedTuple<String>> page = this.template.opsForZSet()
			.reverseRangeWithScores(this.keyspace.queueKey(queue, KeyType.DEAD.suffix()), offset, offset + limit - 1L);
		List<JobView> views = new ArrayList<>();
		if (page == null) {
			return views;
		}
		for (TypedTuple<String> entry : page) {
			String id = entry.getValue();
			if (id == null || !JobId.isValid(id)) {
				continue;
			}
			JobView view = job(queue, JobId.parse(id));
			if (view != null) {
				views.add(view);
			}
		}
		return views;
	}

	/**
	 * Return one job's row.
	 * @param queue the queue
	 * @param id the job id
	 * @return the view, or {@code null} if the job has no row (done, or unknown) or its
	 * state names no location (the audit reports such a row); other malformed numbers
	 * read as 0
	 */
	public @Nullable JobView job(String queue, JobId id) {
		Map<Object, Object> row = this.template.opsForHash().entries(this.keyspace.jobKey(queue, id));
		JobState state = state(row.get("state"));
		if (state == null) {
			return null;
		}
		Double score = this.template.opsForZSet().score(this.keyspace.locationKey(queue, state), id.toString());
		return view(queue, id, state, row, score);
	}

	/**
	 * Return a page of the ids in one location, highest score first: the most recent
	 * death, the latest lease deadline or run-at, and in pending the job that would be
	 * claimed last. Members that are not well-formed JOB ids are left out.
	 * @param queue the queue
	 * @param state the location
	 * @param offset how many to skip
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @return the ids
	 * @throws IllegalArgumentException if the offset or limit is out of range
	 */
	public List<JobId> ids(String queue, JobState state, int offset, int limit) {
		List<JobId> ids = new ArrayList<>();
		for (TypedTuple<String> entry : range(queue, state, offset, limit)) {
			String id = entry.getValue();
			if (id != null && JobId.isValid(id)) {
				ids.add(JobId.parse(id));
			}
		}
		return ids;
	}

	/**
	 * Return the queues stored under this key prefix: every queue (each partition of a
	 * partitioned one by its logical name) whose stored format a node has recorded, which
	 * it does the first time it enqueues to the queue, puts one of its schedules or
	 * starts a listener on it. Found with {@code SCAN} over the whole keyspace (every
	 * master of a cluster): for tests and tools, not for a hot path.
	 * @return the logical queue names, sorted
	 */
	public Set<String> queues() {
		String head = this.keyspace.prefix() + ":{";
		String tail = "}:" + KeyType.META.suffix();
		ScanOptions options = ScanOptions.scanOptions()
			.match(AuditReads.escapeGlob(head) + "*" + AuditReads.escapeGlob(tail))
			.count(QueueAuditor.SCAN_COUNT)
			.build();
		Set<String> queues = new TreeSet<>();
		this.template.execute((RedisCallback<Void>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				for (RedisClusterNode node : cluster.clusterGetNodes()) {
					if (node.isMaster()) {
						collect(cluster.scan(node, options), head, tail, queues);
					}
				}
			}
			else {
				collect(connection.keyCommands().scan(options), head, tail, queues);
			}
			return null;
		});
		return queues;
	}

	private static void collect(Cursor<byte[]> cursor, String head, String tail, Set<String> queues) {
		try (cursor) {
			while (cursor.hasNext()) {
				String key = new String(cursor.next(), StandardCharsets.UTF_8);
				if (key.startsWith(head) && key.endsWith(tail) && key.length() > head.length() + tail.length()) {
					queues.add(QueuePartitions.logicalName(key.substring(head.length(), key.length() - tail.length())));
				}
			}
		}
	}

	/**
	 * Return a page of the jobs in one location, in the order of
	 * {@link #ids(String, JobState, int, int)}, with their rows: one {@code ZREVRANGE}
	 * and one {@code HGETALL} per id, pipelined on a standalone server. An id whose row
	 * is gone (the job moved on between the two reads) or unreadable is left out;
	 * {@link QueueAuditor} reports the latter.
	 * @param queue the queue
	 * @param state the location
	 * @param offset how many to skip
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @return the jobs
	 * @throws IllegalArgumentException if the offset or limit is out of range
	 */
	public List<JobView> jobs(String queue, JobState state, int offset, int limit) {
		return views(queue, state, range(queue, state, offset, limit));
	}

	/**
	 * Return a page of the jobs waiting in one fair lane of a queue (pending, but held in
	 * the lane's own location until the lane's turn), in the order of
	 * {@link #jobs(String, JobState, int, int)} for pending jobs, with their rows.
	 * @param queue the queue
	 * @param lane the lane
	 * @param offset how many to skip
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @return the jobs, each {@link JobState#PENDING}
	 * @throws IllegalArgumentException if the lane is invalid, or the offset or limit is
	 * out of range
	 * @see #laneSizes(String)
	 */
	public List<JobView> laneJobs(String queue, String lane, int offset, int limit) {
		Keyspace.validateLane(lane);
		return views(queue, JobState.PENDING,
				range(this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING.suffix()), offset, limit));
	}

	private List<JobView> views(String queue, JobState state, Set<TypedTuple<String>> entries) {
		List<JobId> ids = new ArrayList<>();
		List<@Nullable Double> scores = new ArrayList<>();
		for (TypedTuple<String> entry : entries) {
			String id = entry.getValue();
			if (id != null && JobId.isValid(id)) {
				ids.add(JobId.parse(id));
				scores.add(entry.getScore());
			}
		}
		List<Map<Object, Object>> rows = rows(queue, ids);
		List<JobView> views = new ArrayList<>(ids.size());
		for (int i = 0; i < ids.size(); i++) {
			Map<Object, Object> row = rows.get(i);
			if (row.isEmpty() || !state.value().equals(row.get("state"))) {
				continue;
			}
			try {
				views.add(view(queue, ids.get(i), state, row, scores.get(i)));
			}
			catch (IllegalArgumentException ex) {
				// an unreadable row is an audit finding, not a reason to fail the page
			}
		}
		return views;
	}

	/**
	 * Return a page of the jobs in one location across every partition of a queue, in the
	 * order one sorted set of them all would give (highest score first, then the highest
	 * id, as {@code ZREVRANGE} orders ties): the first {@code offset + limit} ids of each
	 * partition are read and merged, so a page costs one {@code ZREVRANGE} per partition
	 * and one {@code HGETALL} per id shown. The window is bounded: beyond it, read one
	 * partition at a time ({@link #jobs(String, JobState, int, int)}). For a queue with
	 * one partition this is that method.
	 * @param partitions the queue's partitions
	 * @param state the location
	 * @param offset how many to skip
	 * @param limit the page size
	 * @return the jobs, each naming its partition as {@link JobView#queue()}
	 * @throws IllegalArgumentException if the offset or limit is out of range, or
	 * {@code offset + limit} exceeds {@value #MAX_PAGE}
	 */
	public List<JobView> jobs(QueuePartitions partitions, JobState state, int offset, int limit) {
		if (!partitions.isPartitioned()) {
			return jobs(partitions.queue(), state, offset, limit);
		}
		Assert.isTrue(offset >= 0, () -> "offset must not be negative, was " + offset);
		Assert.isTrue(limit > 0 && (long) offset + limit <= MAX_PAGE,
				() -> "offset + limit across the partitions of '" + partitions.queue() + "' must be between 1 and "
						+ MAX_PAGE + ", was " + ((long) offset + limit)
						+ ": read one partition at a time to go further");
		record Member(String partition, String id, double score) {
		}
		List<Member> members = new ArrayList<>();
		for (String name : partitions.names()) {
			for (TypedTuple<String> entry : range(name, state, 0, offset + limit)) {
				String id = entry.getValue();
				if (id != null && JobId.isValid(id)) {
					members.add(new Member(name, id, (entry.getScore() != null) ? entry.getScore() : 0));
				}
			}
		}
		members.sort(Comparator.comparingDouble(Member::score).thenComparing(Member::id).reversed());
		List<Member> page = members.subList(Math.min(offset, members.size()), Math.min(offset + limit, members.size()));
		List<JobView> views = new ArrayList<>(page.size());
		for (Member member : page) {
			JobId id = JobId.parse(member.id());
			Map<Object, Object> row = this.template.opsForHash().entries(this.keyspace.jobKey(member.partition(), id));
			if (row.isEmpty() || !state.value().equals(row.get("state"))) {
				continue;
			}
			try {
				views.add(view(member.partition(), id, state, row, member.score()));
			}
			catch (IllegalArgumentException ex) {
				// an unreadable row is an audit finding, not a reason to fail the page
			}
		}
		return views;
	}

	/**
	 * Return every field of a job's row, payload included: its parts (see
	 * {@link RowPayload}) joined into the one {@code payload} field.
	 * @param queue the queue
	 * @param id the job id
	 * @return the fields, empty if the job has no row
	 */
	public Map<String, String> row(String queue, JobId id) {
		Map<Object, Object> raw = this.template.opsForHash().entries(this.keyspace.jobKey(queue, id));
		Map<String, String> row = new LinkedHashMap<>();
		raw.forEach((name, value) -> {
			String field = String.valueOf(name);
			if (!RowPayload.isPayloadField(field)) {
				row.put(field, String.valueOf(value));
			}
		});
		String payload = RowPayload.join(raw);
		if (payload != null) {
			row.put(RowPayload.FIELD, payload);
		}
		return row;
	}

	private Set<TypedTuple<String>> range(String queue, JobState state, int offset, int limit) {
		Assert.notNull(state, "'state' must not be null");
		return range(this.keyspace.locationKey(queue, state), offset, limit);
	}

	private Set<TypedTuple<String>> range(String key, int offset, int limit) {
		Assert.isTrue(offset >= 0, () -> "offset must not be negative, was " + offset);
		Assert.isTrue(limit > 0 && limit <= MAX_PAGE,
				() -> "limit must be between 1 and " + MAX_PAGE + ", was " + limit);
		Set<TypedTuple<String>> page = this.template.opsForZSet()
			.reverseRangeWithScores(key, offset, offset + limit - 1L);
		return (page != null) ? page : Set.of();
	}

	@SuppressWarnings("unchecked")
	private List<Map<Object, Object>> rows(String queue, List<JobId> ids) {
		List<Map<Object, Object>> rows = new ArrayList<>(ids.size());
		if (ids.isEmpty()) {
			return rows;
		}
		if (this.executor.isCluster()) {
			for (JobId id : ids) {
				rows.add(this.template.opsForHash().entries(this.keyspace.jobKey(queue, id)));
			}
			return rows;
		}
		List<Object> replies = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
			for (JobId id : ids) {
				connection.hashCommands().hGetAll(this.keyspace.jobKey(queue, id).getBytes(StandardCharsets.UTF_8));
			}
			return null;
		});
		for (Object reply : replies) {
			rows.add((reply instanceof Map<?, ?> map) ? (Map<Object, Object>) map : Map.of());
		}
		return rows;
	}

	private static JobView view(String queue, JobId id, JobState state, Map<Object, Object> row,
			@Nullable Double score) {
		return new JobView(queue, id, state, number(row.get("attempts")), number(row.get("max_attempts")),
				Objects.requireNonNullElse(RowPayload.join(row), ""),
				Instant.ofEpochMilli(number(row.get("enqueued_at"))),
				(row.get("last_error") != null) ? String.valueOf(row.get("last_error")) : null,
				(score != null && state != JobState.PENDING) ? Instant.ofEpochMilli(score.longValue()) : null,
				(row.get(EchoMqNode.CLAIMED_BY_FIELD) != null) ? String.valueOf(row.get(EchoMqNode.CLAIMED_BY_FIELD))
						: null);
	}

	private static @Nullable JobState state(@Nullable Object value) {
		for (JobState state : JobState.values()) {
			if (state.value().equals(value)) {
				return state;
			}
		}
		return null;
	}

	private static long number(@Nullable Object value) {
		Long number = (value != null) ? RowSchema.parse(String.valueOf(value)) : null;
		return (number != null) ? number : 0;
	}

}
