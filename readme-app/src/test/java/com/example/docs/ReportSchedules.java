package com.example.docs;

import java.time.LocalDate;

import io.echomq.annotation.EchoSchedule;
import io.echomq.schedule.MisfirePolicy;

import org.springframework.stereotype.Component;

@Component
class ReportSchedules {

	// the return value is the payload, computed at each fire time
	@EchoSchedule(queue = "reports", cron = "0 0 2 * * *", zone = "Europe/Paris")
	ReportRequest nightly() {
		return new ReportRequest(LocalDate.now().minusDays(1));
	}

	// a void method is never called: the constant payload (a string) is used
	@EchoSchedule(queue = "cleanup", every = "15m", payload = "sweep", misfire = MisfirePolicy.RUN_ONCE)
	void sweep() {
	}

}
