package io.echomq.schedule.internal;

import java.time.Duration;
import java.time.Instant;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schedule record's text: a record written before overlap, catch-up, start, end and
 * the pause existed reads as their defaults and is written back the same.
 *
 * @author EchoMQ
 */
class ScheduleCodecTests {

	private static final String OLD = "{\"every\":\"PT1H\",\"zone\":\"Z\",\"misfire\":\"SKIP\",\"payload\":\"p\","
			+ "\"origin\":\"ANNOTATION\"}";

	@Test
	void anOldRecordShouldReadAsDefaultsAndWriteBackTheSameText() {
		ScheduleDefinition definition = ScheduleCodec.decode("q", "s", OLD);
		ScheduleSpec spec = definition.spec();
		assertThat(spec.overlap()).isEqualTo(OverlapPolicy.ALLOW);
		assertThat(spec.maxCatchUp()).isEqualTo(ScheduleSpec.DEFAULT_CATCH_UP);
		assertThat(spec.start()).isNull();
		assertThat(spec.end()).isNull();
		assertThat(ScheduleCodec.paused(OLD)).isFalse();
		assertThat(ScheduleCodec.encode(definition)).isEqualTo(OLD);
	}

	@Test
	void newFieldsAndThePauseShouldRoundTrip() {
		ScheduleSpec spec = ScheduleSpec.every(Duration.ofHours(1))
			.withCatchUp(7)
			.withOverlap(OverlapPolicy.HOLD_ONE)
			.withStart(Instant.parse("2026-06-01T00:00:00Z"))
			.withEnd(Instant.parse("2026-07-01T00:00:00Z"));
		ScheduleDefinition definition = new ScheduleDefinition("q", "s", spec, "p", ScheduleOrigin.API);
		String paused = ScheduleCodec.encode(definition, true);
		assertThat(paused).startsWith(ScheduleCodec.PAUSED_PREFIX);
		assertThat(ScheduleCodec.paused(paused)).isTrue();
		assertThat(ScheduleCodec.decode("q", "s", paused)).isEqualTo(definition);
		assertThat(ScheduleCodec.decode("q", "s", paused).spec().misfire()).isEqualTo(MisfirePolicy.CATCH_UP);
	}

}
