package com.example.docs;

import com.example.docs.QuoteJobs.Quote;
import io.echomq.EchoMqOperations;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

@Service
class QuoteReads {

	private final EchoMqOperations template;

	QuoteReads(EchoMqOperations template) {
		this.template = template;
	}

	Quote quoteOf(JobId id) {
		// null while the job has not completed, or once its result expired
		return this.template.result("quotes", id, Quote.class);
	}

}
