package io.echomq.schedule.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EngineServer;
import io.echomq.core.EngineTestSupport;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import io.echomq.support.JacksonPayloadConverter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The schedule store and the fire script on a real server. Fire times are made due by
 * writing the stored next fire time into the past, as a node that was down would find it.
 *
 * @author EchoMQ
 */
@EnumSource(EngineServer.class)
class SchedulesTests extends EngineTestSupport {

	private static final Duration THRESHOLD = Duration.ofMinutes(1);

	private static final Function<ScheduleDefinition, String> STORED = ScheduleDefinition::payload;

	private Schedules schedules;

	private EchoMqTemplate template;

	@BeforeEach
	void setUp() {
		this.schedules = new Schedules(this.engine.jobs());
		this.template = new EchoMqTemplate(this.engine.jobs(),
				new JacksonPayloadConverter(JsonMapper.builder().build()), 1024, (queue) -> 3, List.of());
	}

	@Test
	void scheduleShouldStoreDefinitionAndNextFireTime() {
		assertThat(this.template.schedule(this.queue, "nightly", ScheduleSpec.cron("0 0 2 * * *"), Map.of("a", 1)))
			.isTrue();
		List<ScheduleState> states = this.template.schedules(this.queue);
		assertThat(states).hasSize(1);
		ScheduleState state = states.get(0);
		assertThat(state.definition().payload()).isEqualTo("{\"a\":1}");
		assertThat(state.definition().origin()).isEqualTo(ScheduleOrigin.API);
		assertThat(state.lastFire()).isNull();
		assertThat(state.nextFire()).isAfter(Instant.now().minusSeconds(5));
		assertThat(state.nextFire().toEpochMilli() % 3_600_000).isZero();
		assertThat(this.schedules.queues()).contains(this.queue);
		assertThat(this.template.schedules()).extracting((s) -> s.definition().name()).contains("nightly");
	}

	@Test
	void scheduleSameDefinitionAgainShouldKeepNextFireTime() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		makeDue("s", 5_000);
		assertThat(this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p")).isFalse();
		assertThat(next("s")).isBefore(this.schedules.serverTime());
	}

	@Test
	void dueScheduleShouldFireOnceAndMoveOn() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		Instant due = makeDue("s", 1_000);
		List<ScheduleFire> fired = tick(this.schedules);
		assertThat(fired).singleElement().satisfies((fire) -> {
			assertThat(fire.fireTime()).isEqualTo(due);
			assertThat(fire.id()).isEqualTo(Schedules.occurrenceId(this.queue, "s", due));
		});
		Map<Object, Object> row = this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, fired.get(0).id()));
		assertThat(row).containsEntry("state", "pending")
			.containsEntry("payload", "\"p\"")
			.containsEntry("max_attempts", "3")
			.containsEntry("schedule", "s")
			.containsEntry("fire_at", Long.toString(due.toEpochMilli()));
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isOne();
		ScheduleState state = this.schedules.get(this.queue, "s");
		assertThat(state.lastFire()).isEqualTo(due);
		assertThat(state.nextFire()).isEqualTo(due.plus(Duration.ofHours(1)));
		assertThat(tick(this.schedules)).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isOne();
	}

	@Test
	void aFiredOccurrenceShouldBeHeardAddedWhenTheQueueWritesEvents() {
		this.jobs.events().enable(this.queue, 100);
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		makeDue("s", 1_000);
		ScheduleFire fire = tick(this.schedules).get(0);
		List<MapRecord<String, Object, Object>> entries = this.redis.opsForStream()
			.range(this.jobs.events().key(this.queue), Range.unbounded());
		assertThat(entries).singleElement().satisfies((entry) -> {
			assertThat(entry.getId().getValue()).isEqualTo("1-0");
			assertThat(entry.getValue()).containsEntry("type", "added")
				.containsEntry("id", fire.id().toString())
				.containsEntry("state", "pending")
				.containsEntry("schedule", "s");
		});
	}

	@Test
	void concurrentTicksOfThreeNodesShouldEnqueueExactlyOneJobPerFireTime() throws Exception {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		List<Schedules> nodes = List.of(new Schedules(this.engine.newEngine()), new Schedules(this.engine.newEngine()),
				new Schedules(this.engine.newEngine()));
		ExecutorService pool = Executors.newFixedThreadPool(nodes.size());
		int rounds = 30;
		Instant base = this.schedules.serverTime();
		try {
			for (int round = 0; round < rounds; round++) {
				// a distinct fire time per round: one fired before is (rightly) not
				// enqueued again
				Instant due = base.minusSeconds(1 + round);
				this.redis.opsForZSet().add(key(KeyType.SCHEDULE_NEXT), "s", due.toEpochMilli());
				CountDownLatch start = new CountDownLatch(1);
				List<Future<List<ScheduleFire>>> results = new ArrayList<>();
				for (Schedules node : nodes) {
					results.add(pool.submit(() -> {
						start.await();
						return tick(node);
					}));
				}
				start.countDown();
				int fires = 0;
				for (Future<List<ScheduleFire>> result : results) {
					fires += result.get(10, TimeUnit.SECONDS).size();
				}
				assertThat(fires).as("fires of round %d", round).isOne();
			}
		}
		finally {
			pool.shutdownNow();
		}
		Set<String> pending = this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1);
		assertThat(pending).hasSize(rounds);
		Set<String> fireTimes = new java.util.HashSet<>();
		for (String id : pending) {
			fireTimes.add((String) this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, id), "fire_at"));
		}
		assertThat(fireTimes).hasSize(rounds);
	}

	@Test
	void missedFireTimeShouldBeSkippedByDefault() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofMinutes(10)), "p");
		Instant due = makeDue("s", Duration.ofHours(3).toMillis());
		assertThat(tick(this.schedules)).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		ScheduleState state = this.schedules.get(this.queue, "s");
		assertThat(state.lastFire()).isNull();
		assertThat(state.nextFire()).isAfter(this.schedules.serverTime())
			.isBefore(this.schedules.serverTime().plus(Duration.ofMinutes(10)));
		assertThat(Duration.between(due, state.nextFire()).toMillis() % Duration.ofMinutes(10).toMillis()).isZero();
	}

	@Test
	void missedFireTimesShouldFireOnceUnderRunOnce() {
		this.template.schedule(this.queue, "s",
				ScheduleSpec.every(Duration.ofMinutes(10)).withMisfire(MisfirePolicy.RUN_ONCE), "p");
		Instant due = makeDue("s", Duration.ofHours(3).toMillis());
		assertThat(tick(this.schedules)).singleElement()
			.satisfies((fire) -> assertThat(fire.fireTime()).isEqualTo(due));
		assertThat(tick(this.schedules)).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isOne();
		assertThat(this.schedules.get(this.queue, "s").nextFire()).isAfter(this.schedules.serverTime());
	}

	@Test
	void fireTimeFiredBeforeShouldNotEnqueueTwice() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		Instant due = makeDue("s", 1_000);
		assertThat(tick(this.schedules)).hasSize(1);
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE_NEXT), "s", due.toEpochMilli());
		assertThat(tick(this.schedules)).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isOne();
		assertThat(next("s")).isAfter(due);
	}

	@Test
	void changedSpecShouldBeSeenByAnotherNode() {
		Schedules other = new Schedules(this.engine.newEngine());
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		Instant before = other.get(this.queue, "s").nextFire();
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofMinutes(1)), "p");
		ScheduleState state = other.get(this.queue, "s");
		assertThat(state.definition().spec().every()).isEqualTo(Duration.ofMinutes(1));
		assertThat(state.nextFire()).isBefore(before);
		Instant due = makeDue("s", 1_000);
		assertThat(tick(other)).singleElement().satisfies((fire) -> assertThat(fire.fireTime()).isEqualTo(due));
		assertThat(other.get(this.queue, "s").nextFire()).isEqualTo(due.plus(Duration.ofMinutes(1)));
	}

	@Test
	void unscheduleShouldRemoveScheduleAndKeepEnqueuedOccurrences() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		makeDue("s", 1_000);
		assertThat(tick(this.schedules)).hasSize(1);
		assertThat(this.template.unschedule(this.queue, "s")).isTrue();
		assertThat(this.template.unschedule(this.queue, "s")).isFalse();
		assertThat(this.template.schedules(this.queue)).isEmpty();
		assertThat(this.redis.hasKey(key(KeyType.SCHEDULE_NEXT))).isFalse();
		assertThat(this.redis.hasKey(key(KeyType.SCHEDULE_LAST))).isFalse();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isOne();
	}

	@Test
	void removeShouldSpareADefinitionThatChangedSinceItWasRead() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		String read = this.schedules.definitions(this.queue).get("s");
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(2)), "p");
		assertThat(this.schedules.remove(this.queue, Map.of("s", read))).isZero();
		assertThat(this.template.schedules(this.queue)).hasSize(1);
		String current = this.schedules.definitions(this.queue).get("s");
		assertThat(this.schedules.remove(this.queue, Map.of("s", current))).isOne();
	}

	@Test
	void triggerShouldEnqueueNowAndKeepNextFireTime() {
		this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofHours(1)), "p");
		Instant next = next("s");
		ScheduleFire fire = this.schedules.trigger(this.queue, "s", 2, STORED);
		assertThat(fire.triggered()).isTrue();
		assertThat(this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, fire.id())))
			.containsEntry("schedule", "s")
			.containsEntry("max_attempts", "2")
			.containsEntry("payload", "\"p\"")
			.containsEntry("fire_at", Long.toString(fire.fireTime().toEpochMilli()));
		assertThat(next("s")).isEqualTo(next);
		assertThat(this.schedules.get(this.queue, "s").lastFire()).as("a trigger is the last fire")
			.isEqualTo(fire.fireTime());
		assertThat(this.schedules.trigger(this.queue, "missing", 2, STORED)).isNull();
	}

	@Test
	void badInputShouldBeRefusedNamingTheValueBeforeAnyWrite() {
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> this.template.schedule(this.queue, "s", ScheduleSpec.cron("0 0 25 * * *"), "p"))
			.withMessageContaining("0 0 25 * * *");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> this.template.schedule(this.queue, "s",
					ScheduleSpec.cron("0 0 2 * * *", ScheduleSpec.zone("Mars/Olympus")), "p"))
			.withMessageContaining("Mars/Olympus");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ZERO), "p"))
			.withMessageContaining("PT0S");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> this.template.schedule(this.queue, "s", ScheduleSpec.every(Duration.ofSeconds(-5)), "p"))
			.withMessageContaining("PT-5S");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> this.template.schedule("bad{queue}", "s", ScheduleSpec.every(Duration.ofHours(1)), "p"))
			.withMessageContaining("bad{queue}");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(
					() -> this.template.schedule(this.queue, "bad name", ScheduleSpec.every(Duration.ofHours(1)), "p"))
			.withMessageContaining("bad name");
		assertThat(this.redis.hasKey(key(KeyType.SCHEDULES))).isFalse();
		assertThat(this.redis.hasKey(key(KeyType.SCHEDULE_NEXT))).isFalse();
		assertThat(this.schedules.queues()).doesNotContain(this.queue);
	}

	@Test
	void occurrenceIdShouldBeTheSameForTheSameFireTimeOnly() {
		Instant time = Instant.parse("2026-03-29T01:00:00Z");
		JobId id = Schedules.occurrenceId("q", "s", time);
		assertThat(Schedules.occurrenceId("q", "s", time)).isEqualTo(id);
		assertThat(id.timestamp()).isEqualTo(time);
		assertThat(Schedules.occurrenceId("q", "s", time.plusMillis(1))).isNotEqualTo(id);
		assertThat(Schedules.occurrenceId("q", "t", time)).isNotEqualTo(id);
		assertThat(Schedules.occurrenceId("r", "s", time)).isNotEqualTo(id);
		assertThat(JobId.isValid(id.toString())).isTrue();
	}

	@Test
	void autumnChangeInParisShouldFireTheRepeatedHourOnce() {
		List<Instant> fires = walk("0 30 2 * * *", "Europe/Paris", Instant.parse("2026-10-23T00:30:00Z"), 4);
		assertThat(fires).containsExactly(Instant.parse("2026-10-23T00:30:00Z"), Instant.parse("2026-10-24T00:30:00Z"),
				Instant.parse("2026-10-25T00:30:00Z"), Instant.parse("2026-10-26T01:30:00Z"));
	}

	@Test
	void springChangeInParisShouldFireTheMissingHourOnceAtTheEndOfTheGap() {
		List<Instant> fires = walk("0 30 2 * * *", "Europe/Paris", Instant.parse("2026-03-28T01:30:00Z"), 3);
		assertThat(fires).containsExactly(Instant.parse("2026-03-28T01:30:00Z"), Instant.parse("2026-03-29T01:30:00Z"),
				Instant.parse("2026-03-30T00:30:00Z"));
	}

	@Test
	void changesInNewYorkShouldNeitherDoubleNorLoseARun() {
		assertThat(walk("0 30 1 * * *", "America/New_York", Instant.parse("2026-10-31T05:30:00Z"), 3)).containsExactly(
				Instant.parse("2026-10-31T05:30:00Z"), Instant.parse("2026-11-01T05:30:00Z"),
				Instant.parse("2026-11-02T06:30:00Z"));
		assertThat(walk("0 30 2 * * *", "America/New_York", Instant.parse("2026-03-07T07:30:00Z"), 3)).containsExactly(
				Instant.parse("2026-03-07T07:30:00Z"), Instant.parse("2026-03-08T07:30:00Z"),
				Instant.parse("2026-03-09T06:30:00Z"));
	}

	/**
	 * Put a cron schedule, set its next fire time to {@code first}, then tick with a
	 * clock just past each next fire time, as nodes ticking through those days would.
	 */
	private List<Instant> walk(String cron, String zone, Instant first, int count) {
		this.template.schedule(this.queue, "dst", ScheduleSpec.cron(cron, ScheduleSpec.zone(zone)), "p");
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE_NEXT), "dst", first.toEpochMilli());
		long before = this.redis.opsForZSet().size(key(KeyType.PENDING));
		List<Instant> fires = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Instant at = next("dst").plusMillis(1);
			for (ScheduleFire fire : this.schedules.tick(this.queue, THRESHOLD, 3, STORED, () -> at)) {
				fires.add(fire.fireTime());
			}
		}
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(before + fires.size());
		return fires;
	}

	private List<ScheduleFire> tick(Schedules node) {
		return node.tick(this.queue, THRESHOLD, 3, STORED);
	}

	/**
	 * Move a schedule's next fire time into the past, as a node that was down finds it.
	 */
	private Instant makeDue(String name, long agoMillis) {
		Instant due = this.schedules.serverTime().minusMillis(agoMillis);
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE_NEXT), name, due.toEpochMilli());
		return due;
	}

	private Instant next(String name) {
		return Instant.ofEpochMilli(this.redis.opsForZSet().score(key(KeyType.SCHEDULE_NEXT), name).longValue());
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

}
