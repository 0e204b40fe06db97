package com.example.docs;

import io.echomq.annotation.EchoJob;

import org.springframework.stereotype.Component;

@Component
class QuoteJobs {

	record QuoteRequest(String sku, int quantity) {
	}

	record Quote(String sku, int price) {
	}

	@EchoJob(queue = "quotes")
	Quote quote(QuoteRequest request) {
		return new Quote(request.sku(), request.quantity() * 10); // the job's result
	}

}
