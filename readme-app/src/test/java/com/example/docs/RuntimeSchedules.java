package com.example.docs;

import java.time.ZoneId;
import java.util.List;

import io.echomq.EchoMqOperations;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;

import org.springframework.stereotype.Service;

@Service
class RuntimeSchedules {

	private final EchoMqOperations echoMq;

	RuntimeSchedules(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	List<ScheduleState> weekly(ReportRequest request) {
		this.echoMq.schedule("reports", "weekly", ScheduleSpec.cron("@weekly", ZoneId.of("America/New_York")), request);
		List<ScheduleState> all = this.echoMq.schedules(); // with last and next fire time
		this.echoMq.unschedule("reports", "weekly");
		return all;
	}

}
