package com.example.docs;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.example.docs.QuoteJobs.Quote;
import com.example.docs.QuoteJobs.QuoteRequest;
import io.echomq.EchoMqOperations;
import io.echomq.core.JobFailedException;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

@Service
class QuoteAwaits {

	private final EchoMqOperations template;

	QuoteAwaits(EchoMqOperations template) {
		this.template = template;
	}

	CompletableFuture<Quote> requestQuote(QuoteRequest request) {
		// enqueued at once, completed when a worker on any node completes the job
		return this.template.enqueueForResult("quotes", request, Quote.class, Duration.ofSeconds(10));
	}

	Quote quoteOf(JobId id) {
		try {
			return this.template.await("quotes", id, Quote.class, Duration.ofSeconds(2));
		}
		catch (JobFailedException ex) {
			// dead-lettered: ex.getLastError() is the last error the dead row keeps
			throw new IllegalStateException("No quote: " + ex.getLastError(), ex);
		}
	}

}
