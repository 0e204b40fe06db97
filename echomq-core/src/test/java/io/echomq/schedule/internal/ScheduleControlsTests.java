package io.echomq.schedule.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.echomq.core.EngineServer;
import io.echomq.core.EngineTestSupport;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.KeyType;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.UnknownScheduleException;
import io.echomq.support.JacksonPayloadConverter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The run-time controls of a schedule on a real server: pause, resume and delete on its
 * record, the overlap policies read in the fire script, and the catch-up of missed times.
 * Fire times are made due by writing the stored next fire time into the past.
 *
 * @author EchoMQ
 */
@EnumSource(EngineServer.class)
class ScheduleControlsTests extends EngineTestSupport {

	private static final Duration THRESHOLD = Duration.ofMinutes(1);

	private static final Function<ScheduleDefinition, String> STORED = ScheduleDefinition::payload;

	private Schedules schedules;

	private ScheduleTicker ticker;

	@BeforeEach
	void setUp() {
		this.schedules = new Schedules(this.engine.jobs());
		this.ticker = new ScheduleTicker(this.schedules, Duration.ofSeconds(1), THRESHOLD, List::of, (queue) -> 3,
				new JacksonPayloadConverter(JsonMapper.builder().build()), ThreadPoolTaskScheduler::new, List.of());
	}

	@Test
	void pausedScheduleShouldNotFireStayPausedWhenDeclaredAgainResumeFromNowAndAnUnknownOneWriteNothing() {
		ScheduleDefinition declared = declare(ScheduleSpec.every(Duration.ofHours(1)));
		makeDue("s", 1_000);
		ScheduleState paused = this.ticker.pause(this.queue, "s");
		assertThat(paused.paused()).isTrue();
		assertThat(paused.nextFire()).isNull();
		assertThat(tick()).isEmpty();
		assertThat(this.schedules.put(declared)).isFalse();
		ScheduleDefinition changed = new ScheduleDefinition(this.queue, "s", ScheduleSpec.every(Duration.ofMinutes(5)),
				"p", ScheduleOrigin.ANNOTATION);
		assertThat(this.schedules.put(changed)).isTrue();
		assertThat(this.schedules.get(this.queue, "s")).satisfies((state) -> {
			assertThat(state.paused()).isTrue();
			assertThat(state.nextFire()).isNull();
			assertThat(state.definition().spec().every()).isEqualTo(Duration.ofMinutes(5));
		});
		assertThat(this.ticker.pause(this.queue, "s").paused()).isTrue();
		Instant before = this.schedules.serverTime();
		ScheduleState resumed = this.ticker.resume(this.queue, "s");
		assertThat(resumed.paused()).isFalse();
		assertThat(resumed.nextFire()).isAfter(before);
		assertThat(this.ticker.resume(this.queue, "s").nextFire()).isEqualTo(resumed.nextFire());
		this.ticker.delete(this.queue, "s");
		assertThat(this.schedules.get(this.queue, "s")).isNull();
		declare(ScheduleSpec.every(Duration.ofHours(1)));
		Set<String> keys = this.redis.keys(this.keyspace.queueKey(this.queue, "*"));
		Map<Object, Object> records = this.redis.opsForHash().entries(key(KeyType.SCHEDULES));
		assertThatExceptionOfType(UnknownScheduleException.class).isThrownBy(() -> this.ticker.pause(this.queue, "x"))
			.withMessageContaining("'x'")
			.withMessageContaining("nothing was written");
		assertThatExceptionOfType(UnknownScheduleException.class).isThrownBy(() -> this.ticker.resume(this.queue, "x"));
		assertThatExceptionOfType(UnknownScheduleException.class).isThrownBy(() -> this.ticker.delete(this.queue, "x"));
		assertThat(this.redis.keys(this.keyspace.queueKey(this.queue, "*"))).isEqualTo(keys);
		assertThat(this.redis.opsForHash().entries(key(KeyType.SCHEDULES))).isEqualTo(records);
	}

	@Test
	void skipShouldNotFireWhileThePreviousOccurrenceIsActive() {
		declare(ScheduleSpec.every(Duration.ofHours(1)).withOverlap(OverlapPolicy.SKIP));
		makeDue("s", 2_000);
		ScheduleFire first = tick().get(0);
		ClaimedJob running = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(running.id()).isEqualTo(first.id());
		Instant second = makeDue("s", 1_000);
		assertThat(tick()).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(next("s")).isEqualTo(second.plus(Duration.ofHours(1)));
		assertThat(this.jobs.outcomes().complete(this.queue, running.id(), running.token()).isApplied()).isTrue();
		Instant third = makeDue("s", 500);
		assertThat(tick()).singleElement().satisfies((fire) -> assertThat(fire.fireTime()).isEqualTo(third));
	}

	@Test
	void holdOneShouldHoldOneTimeBehindThePreviousAndFireItLateOnceItFinished() {
		declare(ScheduleSpec.every(Duration.ofHours(1)).withOverlap(OverlapPolicy.HOLD_ONE));
		makeDue("s", 2_000);
		tick();
		ClaimedJob running = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		Instant held = makeDue("s", 1_000);
		assertThat(tick()).isEmpty();
		assertThat(tick()).isEmpty();
		assertThat(next("s")).isEqualTo(held);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(this.jobs.outcomes().complete(this.queue, running.id(), running.token()).isApplied()).isTrue();
		// three hours later, long past the misfire threshold: a held time still fires
		Instant later = this.schedules.serverTime().plus(Duration.ofHours(3));
		assertThat(this.schedules.tick(this.queue, THRESHOLD, 3, STORED, () -> later)).singleElement()
			.satisfies((fire) -> assertThat(fire.fireTime()).isEqualTo(held));
		assertThat(next("s")).isAfter(later);
	}

	@Test
	void cancelPreviousShouldRetireAPendingPreviousOccurrenceAndFire() {
		declare(ScheduleSpec.every(Duration.ofHours(1)).withOverlap(OverlapPolicy.CANCEL_PREVIOUS));
		makeDue("s", 2_000);
		ScheduleFire first = tick().get(0);
		makeDue("s", 1_000);
		ScheduleFire second = tick().get(0);
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(second.id().toString());
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, first.id()))).isFalse();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "cancelled")).isEqualTo("1");
	}

	@Test
	void catchUpShouldFireTheMostRecentMissedTimesBoundedAndStartAndEndShouldBound() {
		declare(ScheduleSpec.every(Duration.ofHours(1)).withCatchUp(2));
		Instant due = makeDue("s", Duration.ofHours(5).plusSeconds(1).toMillis());
		assertThat(tick()).extracting(ScheduleFire::fireTime)
			.containsExactly(due.plus(Duration.ofHours(4)), due.plus(Duration.ofHours(5)));
		assertThat(next("s")).isEqualTo(due.plus(Duration.ofHours(6)));
		Instant now = this.schedules.serverTime();
		this.schedules.put(new ScheduleDefinition(this.queue, "later",
				ScheduleSpec.every(Duration.ofHours(1)).withStart(now.plus(Duration.ofDays(1))), "p",
				ScheduleOrigin.API));
		assertThat(next("later")).isEqualTo(now.plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS));
		this.schedules.put(new ScheduleDefinition(this.queue, "e",
				ScheduleSpec.every(Duration.ofHours(1)).withEnd(now.minusSeconds(1)), "p", ScheduleOrigin.API));
		assertThat(this.schedules.get(this.queue, "e").nextFire()).isNull();
	}

	private ScheduleDefinition declare(ScheduleSpec spec) {
		ScheduleDefinition definition = new ScheduleDefinition(this.queue, "s", spec, "p", ScheduleOrigin.ANNOTATION);
		assertThat(this.schedules.put(definition)).isTrue();
		return definition;
	}

	private List<ScheduleFire> tick() {
		return this.schedules.tick(this.queue, THRESHOLD, 3, STORED);
	}

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
