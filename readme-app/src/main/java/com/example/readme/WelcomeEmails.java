package com.example.readme;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.annotation.EchoJob;
import io.echomq.listener.JobContext;

import org.springframework.stereotype.Component;

@Component
public class WelcomeEmails {

	private final List<String> sent = new CopyOnWriteArrayList<>();

	@EchoJob(queue = "welcome-email", concurrency = "8")
	void send(WelcomeEmail email, JobContext context) {
		// returning completes the job; throwing retries it later
		this.sent.add(email.email() + ": Welcome, " + email.name() + "! (attempt " + context.attempt() + ")");
	}

	public List<String> sent() {
		return this.sent;
	}

}
