package com.example.docs;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.NonRetryableJobException;

import org.springframework.stereotype.Component;

@Component
class BillingListener {

	@EchoJob(queue = "billing", noRetryFor = CardDeclinedException.class, timeout = "30s", maxAttempts = "8")
	void charge(Invoice invoice) {
		if (invoice.cents() <= 0) {
			throw new NonRetryableJobException("nothing to charge on " + invoice.id());
		}
	}

}
