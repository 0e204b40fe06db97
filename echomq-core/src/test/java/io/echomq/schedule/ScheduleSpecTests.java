package io.echomq.schedule;

import io.echomq.schedule.internal.FirePlan;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fire times of cron and interval schedules, driven by a clock the test moves minute by
 * minute through the days the clocks change in Europe/Paris and America/New_York.
 *
 * @author EchoMQ
 */
class ScheduleSpecTests {

	private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

	private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

	private static final Duration THRESHOLD = Duration.ofMinutes(1);

	@Test
	void dailyRunInParisFiresOnceOnTheAutumnChange() {
		assertThat(fires(ScheduleSpec.cron("0 30 2 * * *", PARIS), LocalDate.of(2026, 10, 25), PARIS))
			.containsExactly(OffsetDateTime.parse("2026-10-25T02:30+02:00"));
	}

	@Test
	void dailyRunInParisInsideTheSpringGapFiresOnceAfterIt() {
		assertThat(fires(ScheduleSpec.cron("0 30 2 * * *", PARIS), LocalDate.of(2026, 3, 29), PARIS))
			.containsExactly(OffsetDateTime.parse("2026-03-29T03:30+02:00"));
	}

	@Test
	void dailyRunInNewYorkFiresOnceOnBothChanges() {
		assertThat(fires(ScheduleSpec.cron("0 30 1 * * *", NEW_YORK), LocalDate.of(2026, 11, 1), NEW_YORK))
			.containsExactly(OffsetDateTime.parse("2026-11-01T01:30-04:00"));
		assertThat(fires(ScheduleSpec.cron("0 30 2 * * *", NEW_YORK), LocalDate.of(2026, 3, 8), NEW_YORK))
			.containsExactly(OffsetDateTime.parse("2026-03-08T03:30-04:00"));
	}

	@Test
	void hourlyRunFiresOncePerWallClockHour() {
		List<OffsetDateTime> autumn = fires(ScheduleSpec.cron("0 0 * * * *", PARIS), LocalDate.of(2026, 10, 25), PARIS);
		assertThat(autumn).hasSize(24).doesNotHaveDuplicates();
		assertThat(autumn).contains(OffsetDateTime.parse("2026-10-25T02:00+02:00"))
			.doesNotContain(OffsetDateTime.parse("2026-10-25T02:00+01:00"));
		List<OffsetDateTime> spring = fires(ScheduleSpec.cron("@hourly", NEW_YORK), LocalDate.of(2026, 3, 8), NEW_YORK);
		assertThat(spring).hasSize(23).doesNotHaveDuplicates().contains(OffsetDateTime.parse("2026-03-08T03:00-04:00"));
	}

	@Test
	void fixedIntervalIgnoresTheWallClock() {
		List<OffsetDateTime> fires = fires(ScheduleSpec.every(Duration.ofMinutes(15)), LocalDate.of(2026, 10, 25),
				PARIS);
		// 25 hours that day, four fires an hour
		assertThat(fires).hasSize(100);
	}

	@Test
	void missedRunsAreSkippedByDefault() {
		ScheduleSpec daily = ScheduleSpec.cron("0 30 2 * * *", PARIS);
		Instant due = Instant.parse("2026-06-01T00:30:00Z");
		Instant now = Instant.parse("2026-06-04T10:00:00Z");
		FirePlan plan = FirePlan.plan(daily, due, now, THRESHOLD);
		assertThat(plan.fire()).isNull();
		assertThat(plan.next()).isEqualTo(Instant.parse("2026-06-05T00:30:00Z"));
	}

	@Test
	void runOnceFiresOneCatchUpOccurrenceNotABacklog() {
		ScheduleSpec daily = ScheduleSpec.cron("0 30 2 * * *", PARIS).withMisfire(MisfirePolicy.RUN_ONCE);
		Instant due = Instant.parse("2026-06-01T00:30:00Z");
		Instant now = Instant.parse("2026-06-04T10:00:00Z");
		FirePlan plan = FirePlan.plan(daily, due, now, THRESHOLD);
		assertThat(plan.fire()).isEqualTo(due);
		assertThat(plan.next()).isEqualTo(Instant.parse("2026-06-05T00:30:00Z"));
	}

	@Test
	void aLateTickWithinTheThresholdStillFires() {
		ScheduleSpec every = ScheduleSpec.every(Duration.ofSeconds(10));
		Instant due = Instant.parse("2026-06-01T00:00:00Z");
		FirePlan plan = FirePlan.plan(every, due, due.plusSeconds(35), THRESHOLD);
		assertThat(plan.fire()).isEqualTo(due);
		assertThat(plan.next()).isEqualTo(due.plusSeconds(40));
	}

	@Test
	void catchUpFiresTheMostRecentMissedCronTimesOneAfterTheOther() {
		ScheduleSpec daily = ScheduleSpec.cron("0 30 2 * * *", PARIS).withCatchUp(2);
		Instant due = Instant.parse("2026-06-01T00:30:00Z");
		Instant now = Instant.parse("2026-06-04T10:00:00Z");
		FirePlan skip = FirePlan.plan(daily, due, now, THRESHOLD);
		assertThat(skip.fire()).isNull();
		assertThat(skip.next()).isEqualTo(Instant.parse("2026-06-03T00:30:00Z"));
		FirePlan first = FirePlan.plan(daily, skip.next(), now, THRESHOLD);
		assertThat(first.fire()).isEqualTo(Instant.parse("2026-06-03T00:30:00Z"));
		FirePlan second = FirePlan.plan(daily, first.next(), now, THRESHOLD);
		assertThat(second.fire()).isEqualTo(Instant.parse("2026-06-04T00:30:00Z"));
		assertThat(second.next()).isEqualTo(Instant.parse("2026-06-05T00:30:00Z"));
		assertThat(ScheduleSpec.every(Duration.ofMinutes(1)).withMisfire(MisfirePolicy.CATCH_UP).maxCatchUp())
			.isEqualTo(ScheduleSpec.DEFAULT_CATCH_UP);
	}

	@Test
	void startAndEndBoundTheFireTimes() {
		Instant start = Instant.parse("2026-06-10T00:00:00Z");
		Instant end = Instant.parse("2026-06-12T00:30:00Z");
		ScheduleSpec daily = ScheduleSpec.cron("0 30 2 * * *", PARIS).withStart(start).withEnd(end);
		assertThat(daily.nextAfter(Instant.parse("2026-06-01T00:00:00Z")))
			.isEqualTo(Instant.parse("2026-06-10T00:30:00Z"));
		assertThat(daily.nextAfter(Instant.parse("2026-06-11T00:30:00Z"))).isEqualTo(end);
		assertThat(daily.nextAfter(end)).isNull();
		assertThat(daily.nextAfter(Instant.parse("2026-06-01T00:30:00Z"), Instant.parse("2026-06-05T00:00:00Z")))
			.isEqualTo(Instant.parse("2026-06-10T00:30:00Z"));
		ScheduleSpec hourly = ScheduleSpec.every(Duration.ofHours(1)).withStart(start);
		assertThat(hourly.nextAfter(Instant.parse("2026-06-01T00:00:00Z"))).isEqualTo(start);
		assertThat(hourly.nextAfter(start)).isEqualTo(start.plus(Duration.ofHours(1)));
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> hourly.withEnd(start.minusSeconds(1)))
			.withMessageContaining("before its start");
		assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> hourly.withCatchUp(0))
			.withMessageContaining("was 0");
	}

	@Test
	void badSpecsAreRejectedNamingTheValue() {
		assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> ScheduleSpec.cron("0 61 * * * *"))
			.withMessageContaining("'0 61 * * * *'");
		assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> ScheduleSpec.zone("Mars/Olympus"))
			.withMessageContaining("Mars/Olympus");
		assertThatExceptionOfType(InvalidScheduleException.class).isThrownBy(() -> ScheduleSpec.every(Duration.ZERO))
			.withMessageContaining("PT0S");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> ScheduleSpec.every(Duration.ofSeconds(-5)))
			.withMessageContaining("PT-5S");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> new ScheduleSpec("@daily", Duration.ofMinutes(1), PARIS, MisfirePolicy.SKIP))
			.withMessageContaining("exactly one of cron and every");
		assertThatExceptionOfType(InvalidScheduleException.class)
			.isThrownBy(() -> new ScheduleSpec(null, null, PARIS, MisfirePolicy.SKIP))
			.withMessageContaining("exactly one of cron and every");
	}

	/**
	 * Run a tick every minute through one day in {@code zone} (from an hour before its
	 * start to an hour after its end), the way the store keeps the next fire time, and
	 * return the fire times that fell on that day.
	 */
	private static List<OffsetDateTime> fires(ScheduleSpec spec, LocalDate day, ZoneId zone) {
		Instant start = day.atStartOfDay(zone).toInstant().minus(Duration.ofHours(1));
		Instant end = day.plusDays(1).atStartOfDay(zone).toInstant().plus(Duration.ofHours(1));
		Instant next = spec.nextAfter(start);
		List<OffsetDateTime> fires = new ArrayList<>();
		for (Instant now = start; now.isBefore(end); now = now.plus(Duration.ofMinutes(1))) {
			while (next != null && !next.isAfter(now)) {
				FirePlan plan = FirePlan.plan(spec, next, now, THRESHOLD);
				if (plan.fire() != null) {
					OffsetDateTime fire = plan.fire().atZone(zone).toOffsetDateTime();
					if (fire.toLocalDate().equals(day)) {
						fires.add(fire);
					}
				}
				next = plan.next();
			}
		}
		return fires;
	}

}
