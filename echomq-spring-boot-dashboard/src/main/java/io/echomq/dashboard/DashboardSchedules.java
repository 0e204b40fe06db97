package io.echomq.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.echomq.schedule.EchoMqSchedules;
import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.UnknownScheduleException;
import org.jspecify.annotations.Nullable;

/**
 * The recurring schedules the dashboard lists and triggers, through the schedule tick of
 * this node.
 *
 * @author EchoMQ
 * @see EchoMqDashboard
 */
final class DashboardSchedules {

	private final @Nullable EchoMqSchedules ticker;

	private final String node;

	DashboardSchedules(@Nullable EchoMqSchedules ticker, String node) {
		this.ticker = ticker;
		this.node = node;
	}

	ScheduleList schedules() {
		EchoMqSchedules ticker = this.ticker;
		if (ticker == null) {
			return new ScheduleList(false, List.of());
		}
		List<ScheduleItem> items = new ArrayList<>();
		for (ScheduleState state : ticker.schedules()) {
			ScheduleDefinition definition = state.definition();
			items.add(new ScheduleItem(definition.queue(), definition.name(), describe(definition.spec()),
					definition.origin().name().toLowerCase(Locale.ROOT), millis(state.lastFire()),
					millis(state.nextFire()), zone(definition.spec()), state.paused()));
		}
		return new ScheduleList(true, items);
	}

	Outcome trigger(String queue, String name) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		EchoMqSchedules ticker = this.ticker;
		if (ticker == null) {
			return new Outcome(Outcome.Status.NOT_FOUND,
					"No schedule tick runs on " + this.node + " (echomq.schedule.enabled=false): nothing to trigger",
					0);
		}
		ScheduleFire fire = ticker.trigger(queue, name);
		if (fire == null) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no schedule '" + name + "'", 0);
		}
		return Outcome.done("Schedule '" + name + "' triggered: job " + fire.id() + " enqueued to '" + queue + "'", 1);
	}

	Outcome pause(String queue, String name, boolean paused) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		EchoMqSchedules ticker = this.ticker;
		if (ticker == null) {
			return noTick();
		}
		try {
			ScheduleState state = paused ? ticker.pause(queue, name) : ticker.resume(queue, name);
			return Outcome.done("Schedule '" + name + "' of queue '" + queue + "' "
					+ (state.paused() ? "paused on every node until resumed" : "resumed"), 1);
		}
		catch (UnknownScheduleException ex) {
			return new Outcome(Outcome.Status.NOT_FOUND, String.valueOf(ex.getMessage()), 0);
		}
	}

	Outcome delete(String queue, String name) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		EchoMqSchedules ticker = this.ticker;
		if (ticker == null) {
			return noTick();
		}
		try {
			ticker.delete(queue, name);
			return Outcome.done("Schedule '" + name + "' of queue '" + queue + "' deleted", 1);
		}
		catch (UnknownScheduleException ex) {
			return new Outcome(Outcome.Status.NOT_FOUND, String.valueOf(ex.getMessage()), 0);
		}
	}

	private Outcome noTick() {
		return new Outcome(Outcome.Status.NOT_FOUND,
				"No schedule tick runs on " + this.node + " (echomq.schedule.enabled=false)", 0);
	}

	private static String describe(ScheduleSpec spec) {
		Duration every = spec.every();
		String when = (spec.cron() != null) ? "cron " + spec.cron() + " " + spec.zone()
				: "every " + ((every != null) ? every.toString().substring(2).toLowerCase(Locale.ROOT) : "?");
		String misfire = (spec.misfire() == MisfirePolicy.CATCH_UP) ? "catch up " + spec.maxCatchUp()
				: spec.misfire().name().toLowerCase(Locale.ROOT);
		StringBuilder text = new StringBuilder(when).append(", misfire ").append(misfire.replace('_', ' '));
		if (spec.overlap() != OverlapPolicy.ALLOW) {
			text.append(", overlap ").append(spec.overlap().name().toLowerCase(Locale.ROOT).replace('_', ' '));
		}
		if (spec.start() != null) {
			text.append(", from ").append(spec.start());
		}
		if (spec.end() != null) {
			text.append(", until ").append(spec.end());
		}
		return text.toString();
	}

	private static @Nullable String zone(ScheduleSpec spec) {
		if (spec.cron() == null) {
			return null;
		}
		return ZoneOffset.UTC.equals(spec.zone()) ? "UTC" : spec.zone().getId();
	}

	private static @Nullable Long millis(@Nullable Instant instant) {
		return (instant != null) ? instant.toEpochMilli() : null;
	}

}
