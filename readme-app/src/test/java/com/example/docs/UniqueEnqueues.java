package com.example.docs;

import java.time.Duration;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.EnqueueResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Service;

@Service
class UniqueEnqueues {

	private static final Logger log = LoggerFactory.getLogger(UniqueEnqueues.class);

	private final EchoMqOperations echoMq;

	UniqueEnqueues(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	EnqueueResult enqueue(Invoice invoice, Report report, DocumentChange change) {
		EnqueueResult result = this.echoMq.enqueueUnique("billing", invoice,
				EnqueueOptions.defaults().withUniqueKey("invoice-" + invoice.id()));
		if (result.duplicate()) {
			log.info("invoice {} already queued as {}", invoice.id(), result.id());
		}
		this.echoMq.enqueue("reports", report,
				EnqueueOptions.defaults().withThrottle("daily-report", Duration.ofMinutes(10)));
		this.echoMq.enqueue("search", change,
				EnqueueOptions.defaults().withDebounce("reindex-" + change.document(), Duration.ofSeconds(5)));
		return result;
	}

}
