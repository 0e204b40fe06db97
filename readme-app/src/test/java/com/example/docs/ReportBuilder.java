package com.example.docs;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;

import org.springframework.stereotype.Component;

@Component
class ReportBuilder {

	record Step(String name) {
	}

	@EchoJob(queue = "reports")
	Report build(JobContext context, ReportRequest request) {
		context.progress(50); // percent, 0-100: row field 'progress'
		context.progress(new Step("copying")); // converted object, at most 4 KB:
												// 'progress_data'
		return new Report("report-" + request.day());
	}

}
