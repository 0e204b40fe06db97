package io.echomq.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.InvalidJobIdException;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.PayloadTooLargeException;
import io.echomq.core.Retention;
import io.echomq.core.RowFields;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.support.PayloadConversionException;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Bad input at every entry point: each is refused with an error that says what was wrong,
 * and nothing is written.
 *
 * @author EchoMQ
 */
@Timeout(60)
class BadInputTests {

	private static final List<String> BAD_QUEUE_NAMES = Arrays.asList(null, "", " ", "has space", "{mail}", "a:b",
			"mail}", "tab\tname", "ünïcode", "star*", "x".repeat(Keyspace.MAX_QUEUE_NAME_LENGTH + 1));

	private TestServer server;

	private String prefix;

	private ChaosWorker worker;

	private Engine jobs;

	private EchoMqTemplate template;

	@BeforeEach
	void setUp() {
		this.server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
		this.prefix = Chaos.uniquePrefix();
		this.worker = new ChaosWorker(
				ChaosWorker.standalone(this.server.host(), this.server.port(), Duration.ofSeconds(5)),
				WorkerSettings.of(this.prefix));
		this.jobs = this.worker.jobs();
		this.template = new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024,
				(queue) -> 3, List.of());
	}

	@AfterEach
	void tearDown() {
		this.worker.close();
	}

	@Test
	void badQueueNamesAreRefusedByEveryApiBeforeAnyWrite() {
		JobId id = JobId.mint();
		for (String name : BAD_QUEUE_NAMES) {
			Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
			calls.put("template.enqueue", () -> this.template.enqueue(name, "x"));
			calls.put("template.enqueueAll", () -> this.template.enqueueAll(name, List.of("x", "y")));
			calls.put("jobs.enqueue", () -> this.jobs.enqueues().enqueue(name, "x", EnqueueSpec.defaults()));
			calls.put("jobs.enqueueAll",
					() -> this.jobs.enqueues().enqueueAll(name, List.of("x"), EnqueueSpec.defaults()));
			calls.put("jobs.claim", () -> this.jobs.claims().claim(name, Duration.ofSeconds(1), 1));
			calls.put("jobs.complete", () -> this.jobs.outcomes().complete(name, id, FencingToken.of(1)));
			calls.put("jobs.retry", () -> this.jobs.outcomes().retry(name, id, FencingToken.of(1), "e", Duration.ZERO));
			calls.put("jobs.deadLetter", () -> this.jobs.outcomes().deadLetter(name, id, FencingToken.of(1), "e"));
			calls.put("jobs.extend",
					() -> this.jobs.outcomes().extend(name, id, FencingToken.of(1), Duration.ofSeconds(1)));
			calls.put("jobs.release", () -> this.jobs.outcomes().release(name, id, FencingToken.of(1)));
			calls.put("jobs.reap", () -> this.jobs.upkeep().reap(name, 10));
			calls.put("jobs.promote", () -> this.jobs.upkeep().promote(name, 10));
			calls.put("jobs.replay", () -> this.jobs.admin().replay(name, id, 1));
			calls.put("jobs.purgeDead", () -> this.jobs.admin().purgeDead(name));
			calls.put("jobs.delete", () -> this.jobs.admin().delete(name, id));
			calls.put("jobs.runNow", () -> this.jobs.admin().runNow(name, id));
			calls.put("jobs.trimHistory", () -> this.jobs.upkeep().trimHistory(name, 10));
			calls.put("jobs.retain", () -> this.jobs.upkeep().retain(name, Retention.ofCount(1), Retention.NONE));
			calls.put("registry.register", () -> this.worker.register(name, (job, context) -> {
			}));
			calls.put("auditor.audit", () -> new QueueAuditor(this.jobs).audit(name, Duration.ofSeconds(1)));
			calls.put("inspector.stats", () -> new QueueInspector(this.jobs).stats(name));
			calls.put("inspector.minutes", () -> new QueueInspector(this.jobs).minutes(name, 60));
			calls.put("keyspace.jobKey", () -> this.jobs.keyspace().jobKey(name, id));
			calls.put("jobs.cancel", () -> this.jobs.admin().cancel(name, id));
			calls.put("jobs.pause", () -> this.jobs.admin().pause(name, null, "x"));
			calls.put("jobs.resume", () -> this.jobs.admin().resume(name));
			calls.put("jobs.pauseLeft", () -> this.jobs.admin().pauseLeft(name));
			EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
			calls.put("admin.cancel", () -> admin.cancel(name, id.toString()));
			calls.put("admin.pause", () -> admin.pause(name));
			calls.put("admin.resume", () -> admin.resume(name));
			calls.put("admin.isPaused", () -> admin.isPaused(name));
			calls.forEach(
					(api, call) -> assertThatExceptionOfType(InvalidQueueNameException.class).as(api + "(" + name + ")")
						.isThrownBy(call)
						.withMessageStartingWith("Invalid EchoMQ queue name"));
		}
		assertThat(this.worker.containers()).isEmpty();
		assertThat(keysWithPrefix()).isEmpty();
	}

	@Test
	void queueNameErrorsSayWhatIsWrong() {
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> Keyspace.validateQueueName("{mail}"))
			.withMessageContaining("'{mail}'")
			.withMessageContaining("braces");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> Keyspace.validateQueueName("x".repeat(500)))
			.withMessageContaining("1-64 characters, was 500")
			.withMessageContaining("...");
		assertThatExceptionOfType(InvalidQueueNameException.class).isThrownBy(() -> Keyspace.validateQueueName(null))
			.withMessageContaining("must not be null");
	}

	@Test
	void forgedOrTruncatedJobIdsAreRefusedWhereverTextBecomesAnId() {
		String valid = JobId.mint().toString();
		List<String> forged = List.of(valid.substring(0, valid.length() - 1), valid + "0", valid.substring(3),
				"JOX" + valid.substring(3), valid.toLowerCase(), " " + valid, valid.substring(0, 24) + "-",
				valid.substring(0, 24) + "}", "JOB" + "z".repeat(JobId.DIGITS), "", "JOB", "*",
				valid.substring(0, 20) + ":pend");
		for (String text : forged) {
			assertThatExceptionOfType(InvalidJobIdException.class).as("parse '%s'", text)
				.isThrownBy(() -> JobId.parse(text))
				.withMessageStartingWith("Invalid JOB id")
				.satisfies((ex) -> assertThat(ex.getInput()).isEqualTo(text));
			assertThat(JobId.isValid(text)).as("isValid '%s'", text).isFalse();
			assertThatExceptionOfType(InvalidJobIdException.class).as("jobKey '%s'", text)
				.isThrownBy(() -> this.jobs.keyspace().jobKey("mail", text));
		}
		assertThatExceptionOfType(InvalidJobIdException.class).isThrownBy(() -> JobId.parse(null))
			.withMessageContaining("must not be null");
		assertThat(JobId.parse(valid).toString()).isEqualTo(valid);
		assertThat(keysWithPrefix()).isEmpty();
	}

	@Test
	void wellFormedButUnknownIdsAndForgedTokensChangeNothing() {
		String queue = "fenced";
		JobId real = this.jobs.enqueues().enqueue(queue, "x", EnqueueSpec.defaults());
		ClaimedJob claimed = this.jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		JobId unknown = JobId.mint();
		Map<String, String> rowBefore = row(queue, real);
		Set<String> keysBefore = keysWithPrefix();
		List<TransitionResult> results = List.of(this.jobs.outcomes().complete(queue, unknown, FencingToken.of(1)),
				this.jobs.outcomes().retry(queue, unknown, FencingToken.of(1), "e", Duration.ZERO),
				this.jobs.outcomes().deadLetter(queue, unknown, FencingToken.of(1), "e"),
				this.jobs.outcomes().extend(queue, unknown, FencingToken.of(1), Duration.ofSeconds(5)),
				this.jobs.outcomes().release(queue, unknown, FencingToken.of(1)),
				this.jobs.admin().replay(queue, unknown, 1),
				this.jobs.outcomes().complete(queue, real, next(claimed.token())),
				this.jobs.outcomes().retry(queue, real, next(claimed.token()), "e", Duration.ZERO),
				this.jobs.outcomes().extend(queue, real, next(claimed.token()), Duration.ofSeconds(5)),
				this.jobs.outcomes().release(queue, real, next(claimed.token())),
				this.jobs.admin().replay(queue, real, 1),
				this.jobs.outcomes().complete("other", real, claimed.token()));
		assertThat(results).allSatisfy((result) -> assertThat(result.isStale()).isTrue());
		for (long token : new long[] { 0, -1, Long.MIN_VALUE }) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> this.jobs.outcomes().complete(queue, real, FencingToken.of(token)))
				.withMessageContaining("token must be positive");
		}
		assertThat(keysWithPrefix()).isEqualTo(keysBefore);
		assertThat(row(queue, real)).isEqualTo(rowBefore);
		assertThat(this.jobs.outcomes().complete(queue, real, claimed.token()).isApplied()).isTrue();
		assertThat(Chaos.audit(this.jobs, queue).violations()).isEmpty();
	}

	@Test
	void idThatIsNotAJobIdInALocationIsReportedByTheAudit() {
		String queue = "foreign";
		this.jobs.enqueues().enqueue(queue, "x", EnqueueSpec.defaults());
		// a foreign writer puts garbage where ids belong
		this.jobs.executor()
			.getTemplate()
			.opsForZSet()
			.add(this.jobs.keyspace().queueKey(queue, KeyType.PENDING.suffix()), "not-a-job", 0);
		AuditReport report = Chaos.audit(this.jobs, queue);
		assertThat(report.isClean()).isFalse();
		assertThat(report.violations()).containsExactly("'not-a-job' in pending is not a valid JOB id");
	}

	@Test
	void foreignMembersAndMalformedRowsAtTheHeadOfPendingDoNotStallAListener() {
		String queue = "stall";
		StringRedisTemplate redis = this.jobs.executor().getTemplate();
		for (int i = 0; i < 20; i++) {
			redis.opsForZSet()
				.add(this.jobs.keyspace().queueKey(queue, KeyType.PENDING.suffix()), "AAA-foreign-" + i, 0);
		}
		List<String> malformed = new ArrayList<>();
		for (String field : List.of("attempts", "max_attempts", "enqueued_at")) {
			// written by an older version, by hand, or by a bug: claimable ids minted
			// before the real jobs
			JobId id = this.jobs.enqueues().enqueue(queue, "broken", EnqueueSpec.defaults());
			redis.opsForHash().delete(this.jobs.keyspace().jobKey(queue, id), field);
			malformed.add(id.toString());
		}
		List<String> real = this.jobs.enqueues()
			.enqueueAll(queue, List.of("1", "2", "3", "4", "5"), EnqueueSpec.defaults())
			.stream()
			.map(JobId::toString)
			.toList();
		Set<String> handled = java.util.concurrent.ConcurrentHashMap.newKeySet();
		this.worker.register(queue, (job, context) -> handled.add(job.id().toString()));
		this.worker.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> handled.size() == real.size());
		assertThat(handled).containsExactlyInAnyOrderElementsOf(real);
		// the scheduler's sweep sets aside what the claims passed over
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Chaos.audit(this.jobs, queue).counts().get(JobState.QUARANTINE) == 23L);
		AuditReport report = Chaos.audit(this.jobs, queue);
		assertThat(report.violations()).isEmpty();
		assertThat(report.counts()).containsEntry(JobState.PENDING, 0L).containsEntry(JobState.ACTIVE, 0L);
		assertThat(Chaos.ids(this.jobs, queue, KeyType.QUARANTINE)).containsAll(malformed).contains("AAA-foreign-0");
		assertThat(Chaos.metric(this.jobs, queue, "quarantined")).isEqualTo(23);
		assertThat(new QueueInspector(this.jobs).stats(queue).quarantine()).isEqualTo(23);
	}

	@Test
	void everyFieldTheEngineWritesOnARowIsReservedFromCallers() {
		String queue = "fields";
		JobId id = this.jobs.enqueues().enqueue(queue, "x", EnqueueSpec.defaults().withPriority(1).withMaxAttempts(2));
		Set<String> seen = new HashSet<>(row(queue, id).keySet());
		// walk the job through every transition that writes its row
		ClaimedJob first = this.jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.jobs.outcomes().release(queue, id, first.token()).isApplied()).isTrue();
		seen.addAll(row(queue, id).keySet());
		ClaimedJob second = this.jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.jobs.outcomes().retry(queue, id, second.token(), "boom", Duration.ofMillis(1)).isApplied())
			.isTrue();
		seen.addAll(row(queue, id).keySet());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().promote(queue, 10) == 1);
		seen.addAll(row(queue, id).keySet());
		ClaimedJob third = this.jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.jobs.outcomes().deadLetter(queue, id, third.token(), "dead").state()).isEqualTo(JobState.DEAD);
		seen.addAll(row(queue, id).keySet());
		assertThat(this.jobs.admin().replay(queue, id, 1).isApplied()).isTrue();
		seen.addAll(row(queue, id).keySet());
		ClaimedJob fourth = this.jobs.claims().claim(queue, Duration.ofMillis(1), 1).get(0);
		seen.addAll(row(queue, id).keySet());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().reap(queue, 10).total() == 1);
		seen.addAll(row(queue, id).keySet());
		assertThat(fourth.token()).isEqualTo(FencingToken.of(4));
		// a job that reports progress and completes with a result on a queue that keeps
		// it
		String kept = "fields-kept";
		this.jobs.upkeep().retain(kept, Retention.ofCount(10), Retention.NONE);
		JobId done = this.jobs.enqueues().enqueue(kept, "y", EnqueueSpec.defaults());
		ClaimedJob running = this.jobs.claims().claim(kept, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.jobs.outcomes().progress(kept, done, running.token(), 40).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().progress(kept, done, running.token(), "{\"step\":1}").isApplied()).isTrue();
		assertThat(this.jobs.outcomes().complete(kept, done, running.token(), null, "\"ok\"").isApplied()).isTrue();
		seen.addAll(row(kept, done).keySet());
		assertThat(seen).as("fields the engine wrote")
			.contains("state", "attempts", "max_attempts", "payload", "result", "progress", "progress_data");
		// a caller (or an enqueue interceptor) that could set one of these would corrupt
		// the budget or the state
		assertThat(RowFields.RESERVED).containsAll(seen);
		for (String field : seen) {
			assertThatIllegalArgumentException().as(field)
				.isThrownBy(() -> EnqueueSpec.defaults().withFields(Map.of(field, "1")))
				.withMessageContaining("'" + field + "' is reserved");
		}
	}

	@Test
	void oversizedPayloadAnywhereInALargeBatchWritesNothing() {
		List<Object> payloads = new ArrayList<>();
		for (int i = 0; i < Engine.ENQUEUE_CHUNK + 50; i++) {
			payloads.add("ok" + i);
		}
		payloads.add("x".repeat(2000));
		assertThatExceptionOfType(PayloadTooLargeException.class)
			.isThrownBy(() -> this.template.enqueueAll("big", payloads))
			.withMessageContaining("'big'")
			.withMessageContaining("1024 bytes");
		assertThat(keysWithPrefix()).isEmpty();
	}

	@Test
	void payloadSizeIsCountedInUtf8Bytes() {
		// 600 characters, 1200 bytes: over the 1024-byte limit
		assertThatExceptionOfType(PayloadTooLargeException.class)
			.isThrownBy(() -> this.template.enqueue("utf8", "é".repeat(600)));
		assertThat(keysWithPrefix()).isEmpty();
		JobId fits = this.template.enqueue("utf8", "é".repeat(500));
		assertThat(this.jobs.claims().claim("utf8", Duration.ofSeconds(5), 1)).extracting(ClaimedJob::id)
			.containsExactly(fits);
	}

	@Test
	void unserializableOrNullPayloadAnywhereInALargeBatchWritesNothing() {
		List<Object> payloads = new ArrayList<>();
		for (int i = 0; i < Engine.ENQUEUE_CHUNK + 50; i++) {
			payloads.add("ok" + i);
		}
		List<Object> unserializable = new ArrayList<>(payloads);
		unserializable.add(new Unserializable());
		assertThatExceptionOfType(PayloadConversionException.class)
			.isThrownBy(() -> this.template.enqueueAll("batch", unserializable))
			.withMessageContaining(Unserializable.class.getName());
		List<Object> withNull = new ArrayList<>(payloads);
		withNull.add(null);
		assertThatIllegalArgumentException().isThrownBy(() -> this.template.enqueueAll("batch", withNull))
			.withMessageContaining("must not be null");
		List<String> texts = new ArrayList<>();
		payloads.forEach((payload) -> texts.add((String) payload));
		texts.add(null);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.enqueues().enqueueAll("batch", texts, EnqueueSpec.defaults()))
			.withMessageContaining("must not contain null");
		assertThat(keysWithPrefix()).isEmpty();
	}

	@Test
	void badEnqueueSpecsAndTransitionArgumentsAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueSpec.defaults().withMaxAttempts(0))
			.withMessageContaining("maxAttempts");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueSpec.defaults().withDelay(Duration.ofMillis(-1)))
			.withMessageContaining("delay");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueSpec.defaults().withFields(Map.of("state", "dead")))
			.withMessageContaining("reserved");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.claims().claim("q", Duration.ZERO, 1))
			.withMessageContaining("lease");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.claims().claim("q", Duration.ofSeconds(-1), 1))
			.withMessageContaining("lease");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.claims().claim("q", Duration.ofSeconds(1), 0))
			.withMessageContaining("max");
		JobId id = JobId.mint();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes().extend("q", id, FencingToken.of(1), Duration.ofMillis(0)))
			.withMessageContaining("lease");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes().retry("q", id, FencingToken.of(1), "e", Duration.ofMillis(-5)))
			.withMessageContaining("backoff");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.admin().replay("q", id, 0))
			.withMessageContaining("budget");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.upkeep().reap("q", 0))
			.withMessageContaining("limit");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.upkeep().promote("q", -1))
			.withMessageContaining("limit");
		assertThat(keysWithPrefix()).isEmpty();
	}

	private Map<String, String> row(String queue, JobId id) {
		return this.jobs.executor()
			.getTemplate()
			.<String, String>opsForHash()
			.entries(this.jobs.keyspace().jobKey(queue, id));
	}

	private Set<String> keysWithPrefix() {
		StringRedisTemplate redis = this.jobs.executor().getTemplate();
		Set<String> keys = new HashSet<>();
		redis.execute((RedisCallback<Void>) (connection) -> {
			try (Cursor<byte[]> cursor = connection.keyCommands()
				.scan(ScanOptions.scanOptions().match(this.prefix + ":*").count(1000).build())) {
				cursor.forEachRemaining((key) -> keys.add(new String(key, StandardCharsets.UTF_8)));
			}
			return null;
		});
		return keys;
	}

	static class Unserializable {

		public String getValue() {
			throw new IllegalStateException("cannot be read");
		}

	}

	private static FencingToken next(FencingToken token) {
		return FencingToken.of(token.value() + 1);
	}

}
