package com.example.docs;

import java.time.Duration;
import java.time.Instant;

import io.echomq.EchoMqOperations;
import io.echomq.schedule.EchoMqSchedules;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;

import org.springframework.stereotype.Service;

@Service
class ScheduleControls {

	private final EchoMqOperations echoMq;

	private final EchoMqSchedules schedules;

	ScheduleControls(EchoMqOperations echoMq, EchoMqSchedules schedules) {
		this.echoMq = echoMq;
		this.schedules = schedules;
	}

	void campaign(Instant start, Instant end) {
		// every 5 minutes in the window, never two at once, 3 missed times caught up
		ScheduleSpec spec = ScheduleSpec.every(Duration.ofMinutes(5))
			.withStart(start)
			.withEnd(end)
			.withOverlap(OverlapPolicy.SKIP)
			.withCatchUp(3);
		this.echoMq.schedule("mailings", "campaign", spec, "send-batch");
	}

	void maintenance() {
		ScheduleState paused = this.schedules.pause("reports", "ReportSchedules.nightly"); // every
																							// node,
																							// kept
		// ... paused.paused() is true, paused.nextFire() null; a deploy keeps it paused
		this.schedules.resume("reports", "ReportSchedules.nightly"); // next fire: the
																		// first after now
		this.schedules.delete("mailings", "campaign"); // UnknownScheduleException if
														// there is none
	}

}
