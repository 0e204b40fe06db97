package io.echomq.inspect;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.LaneKeyType;
import io.echomq.core.internal.StoredFormat;
import io.lettuce.core.RedisFuture;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

/**
 * Checks a queue's keyspace against the engine's invariants: every id in exactly one
 * location, its row well-formed (the row schema the scripts check) with a {@code state}
 * naming that location, no orphan rows or foreign members, no active lease overdue beyond
 * the reap tolerance, and the queue's own keys of the right type. Members of the
 * quarantine location are counted, not reported: they were set aside on purpose.
 * <p>
 * Unique keys ({@code emq:{q}:unique:<name>}) are checked against their jobs: each must
 * be a string holding a JOB id; one without a TTL (until done, debounce) must point at a
 * job that is pending, scheduled or active and whose row names that key, since the
 * scripts that finish a job release its key. A throttle key (with a TTL) may outlive its
 * job until it expires.
 * <p>
 * Batches (docs/flows.md#batches) are checked against their location: each member of
 * {@code emq:{q}:batches} must have a row whose {@code state} is {@code open} or
 * {@code sealed}, and each batch row ({@code emq:{q}:batch:<id>}, found with
 * {@code SCAN}) that is open or sealed must be in it, a finished one not; a row with an
 * unknown state or counts that are not integers (or that exceed its total) is reported.
 * <p>
 * The audit never blocks the server for long: it reads each location in pages of
 * {@value #PAGE} members ({@code ZRANGE} by rank), the page's rows with one pipelined
 * {@code HMGET} each, the row keys with {@code SCAN} ({@code COUNT} {@value #SCAN_COUNT})
 * checked against the locations with one {@code ZMSCORE} per location and batch of
 * {@value #SCAN_COUNT}; each of these commands runs in well under a millisecond on a
 * queue of a million jobs (docs/benchmarks-history.md, "Audit"), and the client holds one
 * page at a time, not the queue. It lists at most {@value #MAX_LISTED} violations and
 * counts the rest.
 * <p>
 * The audit reads page after page, so it is exact only for a quiescent queue (at the end
 * of a test, or with listeners paused); on a busy queue a job that moves between two
 * reads may be reported, or missed.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class QueueAuditor {

	/** Most members one command reads, and most commands one pipelined batch sends. */
	public static final int PAGE = 1_000;

	/**
	 * The {@code COUNT} of each {@code SCAN} for row keys, and the ids one
	 * {@code ZMSCORE} checks: both cost the server about a microsecond per key.
	 */
	public static final int SCAN_COUNT = 250;

	/** Most violations a report lists; the rest are only counted. */
	public static final int MAX_LISTED = 1_000;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final KeyAudits keys;

	/**
	 * Create an auditor.
	 * @param engine the engine whose keyspace is audited
	 */
	public QueueAuditor(EchoMqEngine engine) {
		this.keyspace = engine.keyspace();
		this.template = Engine.of(engine).executor().getTemplate();
		this.keys = new KeyAudits(this.keyspace, this.template);
	}

	/**
	 * Audit a queue.
	 * @param queue the queue
	 * @param reapTolerance how far past its lease deadline an active id may be before it
	 * is reported (the reap interval plus slack)
	 * @return the report
	 */
	public AuditReport audit(String queue, Duration reapTolerance) {
		String prefix = this.keyspace.jobKeyPrefix(queue);
		AuditReads.Findings findings = new AuditReads.Findings();
		Map<JobState, Long> counts = new EnumMap<>(JobState.class);
		Set<JobState> readable = checkQueueKeys(queue, findings);
		long overdueBefore = AuditReads.serverTime(this.template) - reapTolerance.toMillis();
		long rows = 0;
		for (JobState state : JobState.values()) {
			counts.put(state, 0L);
			if (!readable.contains(state)) {
				continue;
			}
			String key = this.keyspace.locationKey(queue, state);
			for (long offset = 0;; offset += PAGE) {
				Set<TypedTuple<String>> page = this.template.opsForZSet()
					.rangeWithScores(key, offset, offset + PAGE - 1);
				if (page == null || page.isEmpty()) {
					break;
				}
				counts.merge(state, (long) page.size(), Long::sum);
				rows += auditPage(queue, prefix, state, new ArrayList<>(page), overdueBefore, reapTolerance, findings);
				if (page.size() < PAGE) {
					break;
				}
			}
		}
		LaneAudit lanes = auditLanes(queue, prefix, overdueBefore, reapTolerance, counts, findings);
		rows += lanes.rows();
		rows += auditRows(queue, prefix, lanes.lanes(), findings);
		this.keys.auditUniqueKeys(queue, prefix, findings);
		this.keys.auditBatches(queue, findings);
		return new AuditReport(queue, counts, rows, findings.listed, findings.count);
	}

	/**
	 * Check the types of the queue's keys and the metrics counters.
	 * @return the locations that are sorted sets (or absent), which can be read
	 */
	private Set<JobState> checkQueueKeys(String queue, AuditReads.Findings findings) {
		Set<JobState> readable = new HashSet<>();
		for (JobState state : JobState.values()) {
			String key = this.keyspace.locationKey(queue, state);
			if (AuditReads.expectType(this.template, key, DataType.ZSET, "a sorted set", findings)) {
				readable.add(state);
			}
		}
		String metrics = this.keyspace.queueKey(queue, KeyType.METRICS.suffix());
		if (AuditReads.expectType(this.template, metrics, DataType.HASH, "a hash", findings)) {
			this.template.<String, String>opsForHash().entries(metrics).forEach((field, value) -> {
				if (RowSchema.parse(value) == null) {
					findings.add(metrics + " field '" + field + "' is not an integer");
				}
			});
		}
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.WAKE.suffix()), DataType.LIST,
				"a list", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.SCHEDULES.suffix()), DataType.HASH,
				"a hash", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.SCHEDULE_NEXT.suffix()),
				DataType.ZSET, "a sorted set", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.SCHEDULE_LAST.suffix()),
				DataType.HASH, "a hash", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.MINUTES.suffix()), DataType.HASH,
				"a hash", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.PAUSED.suffix()), DataType.STRING,
				"a string", findings);
		AuditReads.expectType(this.template, this.keyspace.queueKey(queue, KeyType.NODES.suffix()), DataType.HASH,
				"a hash", findings);
		String meta = this.keyspace.queueKey(queue, KeyType.META.suffix());
		if (AuditReads.expectType(this.template, meta, DataType.HASH, "a hash", findings)) {
			String format = this.template.<String, String>opsForHash().get(meta, "format");
			Long number = (format != null) ? RowSchema.parse(format) : null;
			if (format != null && (number == null || !StoredFormat.READS.contains(number.intValue()))) {
				findings.add(meta + " field 'format' is '" + format + "', not a format this node reads "
						+ StoredFormat.READS);
			}
		}
		return readable;
	}

	/**
	 * Audit one page of a location: every member a JOB id with a well-formed row whose
	 * state names the location.
	 * @return the rows the page's members have (a row found in two locations is counted
	 * at one of them)
	 */
	private long auditPage(String queue, String prefix, JobState state, List<TypedTuple<String>> page,
			long overdueBefore, Duration reapTolerance, AuditReads.Findings findings) {
		String here = state.value();
		List<String> ids = new ArrayList<>(page.size());
		for (TypedTuple<String> member : page) {
			String id = member.getValue();
			if (id == null || !JobId.isValid(id)) {
				if (state != JobState.QUARANTINE) {
					findings.add("'" + id + "' in " + here + " is not a valid JOB id");
				}
				continue;
			}
			ids.add(id);
			Double score = member.getScore();
			if (state == JobState.ACTIVE && score != null && score < overdueBefore) {
				findings.add(id + " is active past its lease deadline by more than " + reapTolerance);
			}
		}
		List<@Nullable Object> fields = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(ids.size());
			for (String id : ids) {
				futures.add(commands.hmget(AuditReads.bytes(prefix + id), AuditReads.ROW_FIELDS));
			}
			return futures;
		});
		List<String> empty = new ArrayList<>();
		List<String[]> mismatches = new ArrayList<>();
		long rows = 0;
		for (int i = 0; i < ids.size(); i++) {
			String id = ids.get(i);
			Object result = fields.get(i);
			if (result instanceof AuditReads.Failed) {
				rows++;
				findings.add(id + " in " + here + ": row is not a hash");
				continue;
			}
			List<@Nullable String> values = AuditReads.values(result);
			if (values.stream().allMatch((value) -> value == null)) {
				empty.add(id);
				continue;
			}
			rows++;
			String rowState = values.get(0);
			// a quarantined row is malformed by definition: only its state is checked
			String problem = (state != JobState.QUARANTINE) ? RowSchema.fieldProblem(values)
					: RowSchema.stateFieldProblem(rowState);
			if (problem != null) {
				findings.add(id + " in " + here + ": " + problem);
			}
			else if (!here.equals(rowState)) {
				mismatches.add(new String[] { id, String.valueOf(rowState) });
			}
		}
		rows += reportEmpty(queue, prefix, state, empty, findings);
		return rows - reportMismatches(queue, state, mismatches, findings);
	}

	/**
	 * Report ids whose row has none of the schema's fields: no row at all, or a hash
	 * without them.
	 * @return how many of them have a row
	 */
	private long reportEmpty(String queue, String prefix, JobState state, List<String> ids,
			AuditReads.Findings findings) {
		if (ids.isEmpty()) {
			return 0;
		}
		List<@Nullable Object> exists = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(ids.size());
			for (String id : ids) {
				futures.add(commands.exists(AuditReads.bytes(prefix + id)));
			}
			return futures;
		});
		long rows = 0;
		for (int i = 0; i < ids.size(); i++) {
			boolean present = exists.get(i) instanceof Long count && count > 0;
			if (present) {
				rows++;
			}
			if (state != JobState.QUARANTINE || present) {
				findings.add(ids.get(i) + " in " + state.value() + ": "
						+ (present ? RowSchema.fieldProblem(AuditReads.nulls()) : "no row"));
			}
		}
		return rows;
	}

	/**
	 * Report ids whose well-formed row names another location: in both, or only here.
	 * @return how many of them are also where their row says (their row is counted there)
	 */
	private long reportMismatches(String queue, JobState state, List<String[]> mismatches,
			AuditReads.Findings findings) {
		if (mismatches.isEmpty()) {
			return 0;
		}
		List<@Nullable Object> scores = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(mismatches.size());
			for (String[] mismatch : mismatches) {
				JobState named = JobState.fromValue(mismatch[1]);
				futures.add(commands.zscore(AuditReads.bytes(this.keyspace.locationKey(queue, named)),
						AuditReads.bytes(mismatch[0])));
			}
			return futures;
		});
		long elsewhere = 0;
		for (int i = 0; i < mismatches.size(); i++) {
			String[] mismatch = mismatches.get(i);
			if (scores.get(i) instanceof Double) {
				elsewhere++;
				findings.add(mismatch[0] + " is in both " + mismatch[1] + " and " + state.value());
			}
			else {
				findings.add(mismatch[0] + " is in " + state.value() + " but its row says state=" + mismatch[1]);
			}
		}
		return elsewhere;
	}

	/**
	 * Audit the fair lanes: every lane's pending set is a location like pending (each
	 * member a JOB id whose well-formed row says {@code state=pending}), its rows name
	 * the lane, a lane with pending jobs is in the ring (else no claim would reach it),
	 * the ring holds no lane without them, and no row in the queue's own pending set
	 * names a lane.
	 * @return the lanes found (in the ring or with a pending key) and the rows their
	 * members have
	 */
	private LaneAudit auditLanes(String queue, String prefix, long overdueBefore, Duration reapTolerance,
			Map<JobState, Long> counts, AuditReads.Findings findings) {
		long rows = 0;
		String ringKey = this.keyspace.queueKey(queue, KeyType.LANES.suffix());
		Set<String> ring = new HashSet<>();
		if (AuditReads.expectType(this.template, ringKey, DataType.ZSET, "a sorted set", findings)) {
			Set<String> members = this.template.opsForZSet().range(ringKey, 0, -1);
			if (members != null) {
				ring.addAll(members);
			}
		}
		// a paused lane's work is out of the ring until it is resumed
		Set<String> paused = PausedLanes.read(this.template, this.keyspace, queue);
		String lanePrefix = this.keyspace.laneKeyPrefix(queue);
		String suffix = ":" + LaneKeyType.PENDING.suffix();
		Set<String> lanes = new TreeSet<>(ring);
		AuditReads.scanKeys(this.template, lanePrefix, "*" + suffix,
				(key) -> lanes.add(key.substring(lanePrefix.length(), key.length() - suffix.length())));
		List<String> valid = new ArrayList<>();
		for (String lane : lanes) {
			try {
				Keyspace.validateLane(lane);
			}
			catch (InvalidQueueNameException ex) {
				findings.add("lane '" + lane + "' is not a valid lane key");
				continue;
			}
			valid.add(lane);
			String key = this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING.suffix());
			if (!AuditReads.expectType(this.template, key, DataType.ZSET, "a sorted set", findings)) {
				continue;
			}
			long members = 0;
			for (long offset = 0;; offset += PAGE) {
				Set<TypedTuple<String>> page = this.template.opsForZSet()
					.rangeWithScores(key, offset, offset + PAGE - 1);
				if (page == null || page.isEmpty()) {
					break;
				}
				members += page.size();
				counts.merge(JobState.PENDING, (long) page.size(), Long::sum);
				List<TypedTuple<String>> tuples = new ArrayList<>(page);
				rows += auditPage(queue, prefix, JobState.PENDING, tuples, overdueBefore, reapTolerance, findings);
				checkLaneFields(prefix, lane, tuples, findings);
				if (page.size() < PAGE) {
					break;
				}
			}
			if (members > 0 && !ring.contains(lane) && !paused.contains(lane)) {
				findings.add("lane " + lane + " has " + members + " pending but is not in the ring " + ringKey
						+ " (no claim would reach it)");
			}
			if (members == 0 && ring.contains(lane)) {
				findings.add("lane " + lane + " is in the ring " + ringKey + " with nothing pending");
			}
		}
		if (!valid.isEmpty()) {
			checkNoLanes(queue, prefix, findings);
		}
		return new LaneAudit(valid, rows);
	}

	private void checkLaneFields(String prefix, @Nullable String lane, List<TypedTuple<String>> page,
			AuditReads.Findings findings) {
		List<String> ids = new ArrayList<>(page.size());
		for (TypedTuple<String> member : page) {
			if (member.getValue() != null && JobId.isValid(member.getValue())) {
				ids.add(member.getValue());
			}
		}
		List<@Nullable Object> values = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>(ids.size());
			for (String id : ids) {
				futures.add(commands.hget(AuditReads.bytes(prefix + id), AuditReads.bytes("lane")));
			}
			return futures;
		});
		for (int i = 0; i < ids.size(); i++) {
			Object value = values.get(i);
			String rowLane = (value instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : null;
			if (lane != null && !lane.equals(rowLane)) {
				findings.add(ids.get(i) + " is in lane " + lane + " but its row says lane=" + rowLane);
			}
			if (lane == null && rowLane != null) {
				findings.add(ids.get(i) + " is in pending but its row says lane=" + rowLane + " (not in its lane)");
			}
		}
	}

	private void checkNoLanes(String queue, String prefix, AuditReads.Findings findings) {
		String key = this.keyspace.queueKey(queue, KeyType.PENDING.suffix());
		for (long offset = 0;; offset += PAGE) {
			Set<TypedTuple<String>> page = this.template.opsForZSet().rangeWithScores(key, offset, offset + PAGE - 1);
			if (page == null || page.isEmpty()) {
				return;
			}
			checkLaneFields(prefix, null, new ArrayList<>(page), findings);
			if (page.size() < PAGE) {
				return;
			}
		}
	}

	/**
	 * Scan the queue's row keys for rows in no location.
	 * @return how many such rows there are
	 */
	private long auditRows(String queue, String prefix, List<String> lanes, AuditReads.Findings findings) {
		Set<String> orphans = new HashSet<>();
		List<String> batch = new ArrayList<>(SCAN_COUNT);
		AuditReads.scanKeys(this.template, prefix, "*", (key) -> {
			String id = key.substring(prefix.length());
			if (!JobId.isValid(id)) {
				findings.add("key " + prefix + id + " is not the row of a JOB id");
				return;
			}
			batch.add(id);
			if (batch.size() == SCAN_COUNT) {
				findOrphans(queue, lanes, batch, orphans);
				batch.clear();
			}
		});
		findOrphans(queue, lanes, batch, orphans);
		for (String id : orphans) {
			findings.add("row of " + id + " is in no location (orphan row)");
		}
		return orphans.size();
	}

	private void findOrphans(String queue, List<String> lanes, List<String> ids, Set<String> orphans) {
		if (ids.isEmpty()) {
			return;
		}
		byte[][] members = ids.stream().map(AuditReads::bytes).toArray(byte[][]::new);
		List<@Nullable Object> scores = AuditReads.async(this.template, (commands) -> {
			List<RedisFuture<?>> futures = new ArrayList<>();
			for (JobState state : JobState.values()) {
				futures.add(commands.zmscore(AuditReads.bytes(this.keyspace.locationKey(queue, state)), members));
			}
			for (String lane : lanes) {
				futures.add(commands.zmscore(
						AuditReads.bytes(this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING.suffix())), members));
			}
			return futures;
		});
		for (int i = 0; i < ids.size(); i++) {
			boolean located = false;
			for (Object perLocation : scores) {
				if (perLocation instanceof List<?> list && list.get(i) != null) {
					located = true;
					break;
				}
			}
			if (!located) {
				orphans.add(ids.get(i));
			}
		}
	}

	private record LaneAudit(List<String> lanes, long rows) {

	}

}
