package com.example.readme;

import io.echomq.EchoMqOperations;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

@Service
public class Signups {

	private final EchoMqOperations echoMq;

	public Signups(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	public JobId signUp(String email, String name) {
		// written to Redis as JSON; returns at once, a listener on any node sends it
		return this.echoMq.enqueue("welcome-email", new WelcomeEmail(email, name));
	}

}
