package com.example.docs;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;

import org.springframework.stereotype.Service;

@Service
class PartitionedEnqueues {

	private final EchoMqOperations echoMq;

	PartitionedEnqueues(EchoMqOperations echoMq) {
		this.echoMq = echoMq;
	}

	void enqueue(Order order, Report report) {
		// one customer's orders share a partition and keep their order
		this.echoMq.enqueue("orders", order, EnqueueOptions.defaults().withPartitionKey(order.customerId()));
		// no key: round-robin over the partitions
		this.echoMq.enqueue("orders", report);
	}

}
