package com.example.docs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

@Service
class Enqueueing {

	private final EchoMqOperations echoMq;

	Enqueueing(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	List<JobId> enqueue(Report report, Invoice invoice, List<Image> images) {
		JobId now = this.echoMq.enqueue("reports", report);
		JobId later = this.echoMq.enqueue("reports", report, EnqueueOptions.delayed(Duration.ofMinutes(5)));
		JobId at = this.echoMq.enqueue("reports", report,
				EnqueueOptions.defaults().withRunAt(Instant.parse("2030-01-01T00:00:00Z")));
		JobId urgent = this.echoMq.enqueue("billing", invoice,
				EnqueueOptions.defaults().withPriority(10).withMaxAttempts(8).withTimeout(Duration.ofSeconds(30)));
		// pipelined, 200 jobs per script call
		List<JobId> ids = this.echoMq.enqueueAll("thumbnails", images);
		return List.of(now, later, at, urgent, ids.get(0));
	}

}
