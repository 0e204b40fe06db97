package com.example.docs;

import com.example.readme.WelcomeEmail;
import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;
import io.echomq.listener.ReceivedJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

@Component
class MailListener {

	private static final Logger log = LoggerFactory.getLogger(MailListener.class);

	@EchoJob(queue = "welcome-email", concurrency = "${mail.concurrency:8}", lease = "1m")
	void sendWelcome(WelcomeEmail email, JobContext context) {
		log.info("{} to {}: attempt {} of {}, enqueued at {}", context.id(), email.email(), context.attempt(),
				context.maxAttempts(), context.enqueuedAt());
	}

	@EchoJob(queue = "raw-mail")
	void sendRaw(ReceivedJob job) {
		log.info("{} holds {}", job.id(), job.payload());
	}

}
