package com.example.docs;

import java.net.http.HttpResponse;
import java.time.Duration;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;
import io.echomq.listener.RateLimitedJobException;

import org.springframework.stereotype.Component;

@Component
class CrmSync {

	private final CrmClient crm;

	CrmSync(CrmClient crm) {
		this.crm = crm;
	}

	@EchoJob(queue = "crm-sync")
	void sync(Contact contact, JobContext context) {
		HttpResponse<String> response = this.crm.push(contact);
		if (response.statusCode() == 429) {
			// runs again later without spending an attempt; true pauses the queue too
			throw new RateLimitedJobException(retryAfter(response), true);
		}
		if (context.isCancelled()) {
			return; // discarded anyway; stop early
		}
		this.crm.confirm(contact);
	}

	private static Duration retryAfter(HttpResponse<String> response) {
		return Duration.ofSeconds(response.headers().firstValueAsLong("Retry-After").orElse(1));
	}

}
