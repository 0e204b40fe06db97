package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Outcomes;
import io.echomq.core.internal.QuarantineResult;
import io.echomq.core.internal.Script;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Malformed data already in the server, written by hand, an older version or a bug: rows
 * missing a field or holding a non-integer, members that are not JOB ids, rows whose
 * state names another location. Every verb must leave such a row byte-for-byte as it was
 * (compared with {@code DUMP} and {@code PTTL} of every key of the queue), report it, and
 * go on with the well-formed jobs around it; the audit must name it; the quarantine
 * transition moves it out of the way. Runs on each server of {@link EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class MalformedRowsTests extends EngineTestSupport {

	private static final Duration TOLERANCE = Duration.ofHours(1);

	/** The token of the planted rows, whose attempts is 1. */
	private static final FencingToken TOKEN = FencingToken.of(1);

	@ParameterizedTest
	@EnumSource
	void claimShouldLeaveAMalformedPendingRowAsItIs(Malformation malformation) {
		JobId id = plant(JobState.PENDING, -1, malformation);
		assertLeftAsItIs(id, JobState.PENDING, malformation, () -> {
			assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).isEmpty();
			return null;
		});
	}

	@ParameterizedTest(name = "{0} of a row with {1}")
	@MethodSource("fencedVerbsAndMalformations")
	void fencedVerbShouldLeaveAMalformedActiveRowAsItIs(FencedVerb verb, Malformation malformation) {
		JobId id = plant(JobState.ACTIVE, future(), malformation);
		assertFencedVerbLeavesItAsItIs(id, malformation, () -> verb.call.apply(this.jobs.outcomes(), this.queue, id));
	}

	static Stream<Arguments> fencedVerbsAndMalformations() {
		return Arrays.stream(FencedVerb.values())
			.flatMap((verb) -> Arrays.stream(Malformation.values())
				.map((malformation) -> Arguments.of(verb, malformation)));
	}

	@ParameterizedTest
	@EnumSource
	void reapShouldLeaveAMalformedExpiredRowAsItIs(Malformation malformation) {
		JobId id = plant(JobState.ACTIVE, past(), malformation);
		assertLeftAsItIs(id, JobState.ACTIVE, malformation, () -> {
			assertThat(this.jobs.upkeep().reap(this.queue, 10)).isEqualTo(new ReapResult(0, 0, 1));
			return null;
		});
	}

	@ParameterizedTest
	@EnumSource
	void promoteShouldLeaveAMalformedDueRowAsItIs(Malformation malformation) {
		JobId id = plant(JobState.SCHEDULE, past(), malformation);
		assertLeftAsItIs(id, JobState.SCHEDULE, malformation, () -> {
			assertThat(this.jobs.upkeep().promote(this.queue, 10)).isZero();
			return null;
		});
	}

	@ParameterizedTest
	@EnumSource
	void replayShouldLeaveAMalformedDeadRowAsItIs(Malformation malformation) {
		JobId id = plant(JobState.DEAD, past(), malformation);
		TransitionResult result = assertLeftAsItIs(id, JobState.DEAD, malformation,
				() -> this.jobs.admin().replay(this.queue, id, 3));
		assertThat(result.isStale()).isTrue();
		assertThat(result.reason()).isEqualTo(malformation.fencedReason());
	}

	@ParameterizedTest
	@EnumSource
	void purgeShouldLeaveAMalformedDeadRowAsItIs(Malformation malformation) {
		JobId id = plant(JobState.DEAD, past(), malformation);
		assertLeftAsItIs(id, JobState.DEAD, malformation, () -> {
			assertThat(this.jobs.admin().purgeDead(this.queue)).isZero();
			return null;
		});
	}

	@ParameterizedTest
	@EnumSource(names = { "PENDING", "ACTIVE", "SCHEDULE", "DEAD" })
	void setVerbsShouldLeaveAForeignMemberAsItIs(JobState location) {
		String key = this.keyspace.locationKey(this.queue, location);
		this.redis.opsForZSet().add(key, "not-a-job", 0);
		Map<String, String> before = snapshot();
		Throwable thrown = catchThrowable(() -> {
			assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).isEmpty();
			assertThat(this.jobs.upkeep().reap(this.queue, 10).total()).isZero();
			assertThat(this.jobs.upkeep().promote(this.queue, 10)).isZero();
			assertThat(this.jobs.admin().purgeDead(this.queue)).isZero();
		});
		assertThat(snapshot()).as("every key of the queue, DUMP and PTTL").isEqualTo(before);
		assertThat(thrown).isNull();
		assertThat(audit().violations())
			.containsExactly("'not-a-job' in " + location.value() + " is not a valid JOB id");
	}

	@Test
	void enqueueWithMalformedArgumentsOrOverAnExistingRowShouldWriteNothing() {
		JobId existing = plant(JobState.PENDING, 0, Malformation.PRIORITY_NOT_AN_INTEGER);
		Script enqueue = Script.load("enqueue");
		JobId fresh = JobId.mint();
		List<String> keys = List.of(key(KeyType.PENDING), key(KeyType.SCHEDULE), key(KeyType.METRICS),
				key(KeyType.WAKE), this.keyspace.jobKey(this.queue, fresh));
		Map<String, String> before = snapshot();
		Map<String, List<String>> calls = new LinkedHashMap<>();
		calls.put("EMQARG ARGV[1]", List.of("x", "0", "0", "", "0", "", fresh.toString(), "p"));
		calls.put("EMQARG ARGV[2]", List.of("3", "high", "0", "", "0", "", fresh.toString(), "p"));
		calls.put("EMQARG ARGV[3]", List.of("3", "0", "-5", "", "0", "", fresh.toString(), "p"));
		calls.put("EMQARG ARGV[4]", List.of("3", "0", "0", "soon", "0", "", fresh.toString(), "p"));
		calls.put("EMQARG 8 arguments", List.of("3", "0", "0", "", "1", "", fresh.toString(), "p"));
		calls.put("EMQARG lane key {x}", List.of("3", "0", "0", "", "0", "{x}", fresh.toString(), "p"));
		for (Map.Entry<String, List<String>> call : calls.entrySet()) {
			assertThat(catchThrowable(() -> this.jobs.executor().execute(enqueue, keys, call.getValue())))
				.as(call.getKey())
				.hasStackTraceContaining(call.getKey());
		}
		List<String> duplicate = new ArrayList<>(keys);
		duplicate.set(4, this.keyspace.jobKey(this.queue, existing));
		assertThat(catchThrowable(() -> this.jobs.executor()
			.execute(enqueue, duplicate, List.of("3", "0", "0", "", "0", "", existing.toString(), "p"))))
			.hasStackTraceContaining("EMQDUP");
		assertThat(snapshot()).as("every key of the queue, DUMP and PTTL").isEqualTo(before);
	}

	@Test
	void claimShouldClaimTheJobsBehindForeignMembersAndMalformedRows() {
		for (int i = 0; i < 20; i++) {
			this.redis.opsForZSet().add(key(KeyType.PENDING), "AAA-foreign-" + i, 0);
		}
		List<JobId> malformed = List.of(plant(JobState.PENDING, 0, Malformation.MISSING_ATTEMPTS),
				plant(JobState.PENDING, 0, Malformation.PRIORITY_NOT_AN_INTEGER),
				plant(JobState.PENDING, 0, Malformation.STATE_ELSEWHERE));
		List<JobId> real = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("a", "b", "c", "d", "e"), EnqueueSpec.defaults());
		List<JobId> claimed = new ArrayList<>();
		this.jobs.claims().claim(this.queue, LEASE, 4).forEach((job) -> claimed.add(job.id()));
		this.jobs.claims().claim(this.queue, LEASE, 4).forEach((job) -> claimed.add(job.id()));
		assertThat(claimed).containsExactlyElementsOf(real);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(23);
		QuarantineResult quarantined = this.jobs.upkeep().quarantineSuspects(this.queue);
		assertThat(quarantined.quarantined()).isEqualTo(23);
		assertThat(quarantined.reasons()).containsEntry("AAA-foreign-0", "not a JOB id")
			.containsEntry(malformed.get(0).toString(), "field 'attempts' is missing")
			.containsEntry(malformed.get(1).toString(), "field 'priority' is not an integer")
			.containsEntry(malformed.get(2).toString(), "state is 'dead', not 'pending'");
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(this.redis.opsForZSet().size(key(KeyType.QUARANTINE))).isEqualTo(23);
		assertThat(row(malformed.get(0))).containsEntry("state", "quarantine")
			.containsEntry("quarantined_from", "pending")
			.containsEntry("quarantine_reason", "field 'attempts' is missing");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "quarantined")).isEqualTo("23");
		AuditReport report = audit();
		assertThat(report.violations()).isEmpty();
		assertThat(report.counts()).containsEntry(JobState.QUARANTINE, 23L).containsEntry(JobState.ACTIVE, 5L);
		assertThat(report.rows()).isEqualTo(8);
		assertThat(new QueueInspector(this.jobs).stats(this.queue).quarantine()).isEqualTo(23);
		assertThat(this.jobs.upkeep().quarantineSuspects(this.queue)).isEqualTo(QuarantineResult.NONE);
	}

	@Test
	void claimShouldPageOnPastAnyNumberOfForeignMembers() {
		for (int start = 0; start < 2_500; start += 500) {
			Set<TypedTuple<String>> members = new HashSet<>();
			for (int i = start; i < start + 500; i++) {
				members.add(TypedTuple.of("AAA-" + i, 0.0));
			}
			this.redis.opsForZSet().add(key(KeyType.PENDING), members);
		}
		List<JobId> real = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b", "c"), EnqueueSpec.defaults());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 3)).extracting(ClaimedJob::id)
			.containsExactlyElementsOf(real);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2_500);
	}

	@Test
	void reapPromoteAndPurgeShouldPassMoreMalformedRowsThanTheirLimit() {
		for (int i = 0; i < 12; i++) {
			plant(JobState.ACTIVE, past() - 1_000, Malformation.MISSING_MAX_ATTEMPTS);
			plant(JobState.SCHEDULE, past() - 1_000, Malformation.RELEASED_NOT_AN_INTEGER);
			plant(JobState.DEAD, past() - 1_000, Malformation.STATE_ELSEWHERE);
		}
		this.jobs.enqueues().enqueueAll(this.queue, List.of("r1", "r2"), EnqueueSpec.defaults());
		this.jobs.claims().claim(this.queue, Duration.ofMillis(1), 2);
		JobId scheduled = this.jobs.enqueues()
			.enqueue(this.queue, "s", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE), scheduled.toString(), past());
		JobId dead = this.jobs.enqueues().enqueue(this.queue, "d", EnqueueSpec.defaults());
		ClaimedJob toKill = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(toKill.id()).isEqualTo(dead);
		this.jobs.outcomes().deadLetter(this.queue, dead, toKill.token(), "x");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 5).requeued() == 2);
		assertThat(this.jobs.upkeep().promote(this.queue, 5)).isEqualTo(1);
		assertThat(this.jobs.admin().purgeDead(this.queue)).isEqualTo(1);
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isEqualTo(12);
		assertThat(this.redis.opsForZSet().size(key(KeyType.SCHEDULE))).isEqualTo(12);
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isEqualTo(12);
		assertThat(this.jobs.upkeep().quarantineSuspects(this.queue).quarantined()).isEqualTo(36);
		assertThat(audit().violations()).isEmpty();
	}

	@Test
	void quarantineShouldRemoveAStrayCopyAndLeaveWellFormedJobs() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		JobId waiting = this.jobs.enqueues().enqueue(this.queue, "y", EnqueueSpec.defaults());
		this.redis.opsForZSet().add(key(KeyType.PENDING), id.toString(), 0);
		assertThat(audit().violations()).containsExactly(id + " is in both active and pending");
		Map<Object, Object> rowBefore = row(id);
		QuarantineResult result = this.jobs.upkeep()
			.quarantine(this.queue, JobState.PENDING, List.of(id.toString(), waiting.toString()));
		assertThat(result.quarantined()).isZero();
		assertThat(result.strays()).isEqualTo(1);
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(waiting.toString());
		assertThat(row(id)).isEqualTo(rowBefore);
		assertThat(audit().violations()).isEmpty();
		assertThat(this.jobs.outcomes().complete(this.queue, id, job.token()).isApplied()).isTrue();
	}

	@Test
	void locationOfTheWrongTypeShouldRefuseTheTransitionWithNothingWritten() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.redis.opsForValue().set(key(KeyType.ACTIVE), "not a sorted set");
		Map<String, String> before = snapshot();
		assertThatExceptionOfType(WrongKeyTypeException.class)
			.isThrownBy(() -> this.jobs.claims().claim(this.queue, LEASE, 1))
			.withMessageContaining(key(KeyType.ACTIVE) + " is a string, not a sorted set");
		assertThat(snapshot()).isEqualTo(before);
		assertThat(audit().violations()).contains(key(KeyType.ACTIVE) + " is a string, not a sorted set");
	}

	@Test
	void counterThatIsNotAnIntegerShouldNotBlockTheTransition() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.redis.opsForHash().put(key(KeyType.METRICS), "completed", "many");
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("many");
		assertThat(audit().violations()).containsExactly(key(KeyType.METRICS) + " field 'completed' is not an integer");
		assertThat(new QueueInspector(this.jobs).stats(this.queue).counters()).doesNotContainKey("completed")
			.containsEntry("enqueued", 1L);
	}

	@Test
	void auditShouldPageThroughLargeLocationsExactly() {
		List<String> payloads = Collections.nCopies(2_345, "p");
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
		this.jobs.claims().claim(this.queue, LEASE, 1_100);
		List<String> expected = new ArrayList<>();
		for (int index : new int[] { 0, 999, 1_000, 1_999, 2_344 }) {
			JobId id = ids.get(index);
			this.redis.opsForHash().delete(this.keyspace.jobKey(this.queue, id), "max_attempts");
			String location = (index < 1_100) ? "active" : "pending";
			expected.add(id + " in " + location + ": field 'max_attempts' is missing");
		}
		JobId orphan = ids.get(1_500);
		this.redis.opsForZSet().remove(key(KeyType.PENDING), orphan.toString());
		expected.add("row of " + orphan + " is in no location (orphan row)");
		AuditReport report = audit();
		assertThat(report.violations()).containsExactlyInAnyOrderElementsOf(expected);
		assertThat(report.violationCount()).isEqualTo(expected.size());
		assertThat(report.counts()).containsEntry(JobState.ACTIVE, 1_100L).containsEntry(JobState.PENDING, 1_244L);
		assertThat(report.rows()).isEqualTo(2_345);
	}

	private <T> T assertLeftAsItIs(JobId id, JobState location, Malformation malformation, Supplier<T> verb) {
		Map<String, String> before = snapshot();
		Object[] result = new Object[1];
		Throwable thrown = catchThrowable(() -> result[0] = verb.get());
		assertThat(snapshot()).as("every key of the queue, DUMP and PTTL").isEqualTo(before);
		assertThat(thrown).isNull();
		assertThat(audit().violations()).as("audit").containsExactly(malformation.violation(id, location));
		@SuppressWarnings("unchecked")
		T value = (T) result[0];
		return value;
	}

	private void assertFencedVerbLeavesItAsItIs(JobId id, Malformation malformation, Supplier<TransitionResult> verb) {
		TransitionResult result = assertLeftAsItIs(id, JobState.ACTIVE, malformation, verb);
		assertThat(result.isStale()).isTrue();
		assertThat(result.reason()).isEqualTo(malformation.fencedReason());
		if (result.reason() == StaleReason.MALFORMED_ROW) {
			// the script and the audit word the problem alike
			assertThat(malformation.violation(id, JobState.ACTIVE)).isEqualTo(id + " in active: " + result.detail());
		}
	}

	/**
	 * Write a well-formed row in a location, then break it.
	 */
	private JobId plant(JobState location, double score, Malformation malformation) {
		JobId id = JobId.mint();
		String row = this.keyspace.jobKey(this.queue, id);
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("state", location.value());
		fields.put("attempts", "1");
		fields.put("max_attempts", "3");
		fields.put("payload", "{}");
		fields.put("enqueued_at", Long.toString(System.currentTimeMillis()));
		this.redis.opsForHash().putAll(row, fields);
		this.redis.opsForZSet().add(this.keyspace.locationKey(this.queue, location), id.toString(), score);
		malformation.apply(this.redis, row, location);
		return id;
	}

	private long future() {
		return System.currentTimeMillis() + Duration.ofHours(1).toMillis();
	}

	private long past() {
		return System.currentTimeMillis() - Duration.ofMinutes(1).toMillis();
	}

	private AuditReport audit() {
		return new QueueAuditor(this.jobs).audit(this.queue, TOLERANCE);
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	private Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
	}

	/**
	 * Every key of the queue: its {@code DUMP} (hex) and {@code PTTL}.
	 */
	private Map<String, String> snapshot() {
		String pattern = "emq:\\{" + this.queue + "\\}:*";
		List<String> keys = new ArrayList<>();
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			try (Cursor<byte[]> cursor = scan(connection, pattern)) {
				cursor.forEachRemaining((key) -> keys.add(new String(key, StandardCharsets.UTF_8)));
			}
			return null;
		});
		Map<String, String> dump = new TreeMap<>();
		for (String key : keys) {
			byte[] bytes = this.redis.dump(key);
			dump.put(key,
					HexFormat.of().formatHex(bytes) + " pttl=" + this.redis.getExpire(key, TimeUnit.MILLISECONDS));
		}
		assertThat(dump).isNotEmpty();
		return dump;
	}

	private Cursor<byte[]> scan(RedisConnection connection, String pattern) {
		ScanOptions options = ScanOptions.scanOptions().match(pattern).count(1000).build();
		if (connection instanceof RedisClusterConnection cluster) {
			byte[] slotKey = key(KeyType.PENDING).getBytes(StandardCharsets.UTF_8);
			return cluster.scan(cluster.clusterGetNodeForKey(slotKey), options);
		}
		return connection.keyCommands().scan(options);
	}

	/**
	 * A verb fenced by the attempts token, called with a token the row does not hold.
	 */
	enum FencedVerb {

		COMPLETE((outcomes, queue, id) -> outcomes.complete(queue, id, TOKEN)),

		RETRY((outcomes, queue, id) -> outcomes.retry(queue, id, TOKEN, "boom", Duration.ofMinutes(1))),

		RETRY_TO_PENDING((outcomes, queue, id) -> outcomes.retry(queue, id, TOKEN, "boom", Duration.ZERO)),

		DEAD_LETTER((outcomes, queue, id) -> outcomes.deadLetter(queue, id, TOKEN, "fatal")),

		EXTEND((outcomes, queue, id) -> outcomes.extend(queue, id, TOKEN, LEASE)),

		RELEASE((outcomes, queue, id) -> outcomes.release(queue, id, TOKEN));

		private final Call call;

		FencedVerb(Call call) {
			this.call = call;
		}

		interface Call {

			TransitionResult apply(Outcomes outcomes, String queue, JobId id);

		}

	}

	/**
	 * A way to break a well-formed row.
	 */
	enum Malformation {

		MISSING_ATTEMPTS("field 'attempts' is missing", deleting("attempts")),

		ATTEMPTS_NOT_AN_INTEGER("field 'attempts' is not an integer", setting("attempts", "01")),

		MISSING_MAX_ATTEMPTS("field 'max_attempts' is missing", deleting("max_attempts")),

		MAX_ATTEMPTS_NOT_AN_INTEGER("field 'max_attempts' is not an integer", setting("max_attempts", "three")),

		PRIORITY_NOT_AN_INTEGER("field 'priority' is not an integer", setting("priority", "high")),

		RELEASED_NOT_AN_INTEGER("field 'released' is not an integer", setting("released", "1.5")),

		MISSING_ENQUEUED_AT("field 'enqueued_at' is missing", deleting("enqueued_at")),

		STATE_ELSEWHERE(null,
				(redis, row, location) -> redis.opsForHash().put(row, "state", elsewhere(location).value())),

		STATE_UNKNOWN("field 'state' names no location", setting("state", "done")),

		NO_ROW("no row", (redis, row, location) -> redis.delete(row)),

		ROW_NOT_A_HASH("row is not a hash", (redis, row, location) -> {
			redis.delete(row);
			redis.opsForValue().set(row, "{}");
		});

		private final String problem;

		private final Breaker breaker;

		Malformation(String problem, Breaker breaker) {
			this.problem = problem;
			this.breaker = breaker;
		}

		void apply(StringRedisTemplate redis, String row, JobState location) {
			this.breaker.apply(redis, row, location);
		}

		private static Breaker deleting(String field) {
			return (redis, row, location) -> redis.opsForHash().delete(row, field);
		}

		private static Breaker setting(String field, String value) {
			return (redis, row, location) -> redis.opsForHash().put(row, field, value);
		}

		String violation(JobId id, JobState location) {
			if (this == STATE_ELSEWHERE) {
				return id + " is in " + location.value() + " but its row says state=" + elsewhere(location).value();
			}
			return id + " in " + location.value() + ": " + this.problem;
		}

		StaleReason fencedReason() {
			return (this == STATE_ELSEWHERE) ? StaleReason.WRONG_STATE : StaleReason.MALFORMED_ROW;
		}

		static JobState elsewhere(JobState location) {
			return (location == JobState.PENDING) ? JobState.DEAD : JobState.PENDING;
		}

	}

	/**
	 * Breaks one row.
	 */
	@FunctionalInterface
	interface Breaker {

		void apply(StringRedisTemplate redis, String row, JobState location);

	}

}
