package com.example.docs;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;

import org.springframework.stereotype.Service;

@Service
class LaneEnqueues {

	private final EchoMqOperations echoMq;

	LaneEnqueues(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	void sync(Contact contact) {
		String company = contact.email().substring(contact.email().indexOf('@') + 1);
		this.echoMq.enqueue("crm-sync", contact, EnqueueOptions.defaults().withLane(company));
	}

}
