package com.example.docs;

import java.time.Duration;

import io.echomq.EchoMqAdmin;
import io.echomq.core.CancelResult;
import io.echomq.core.JobId;

import org.springframework.stereotype.Service;

@Service
class QueueControl {

	private final EchoMqAdmin admin;

	QueueControl(EchoMqAdmin admin) {
		this.admin = admin;
	}

	boolean cancel(JobId id) {
		// CANCELLED, REQUESTED (it is running), NOT_FOUND or REFUSED
		CancelResult result = this.admin.cancel("crm-sync", id);
		return result.isCancelled();
	}

	void maintenanceWindow() {
		// no node claims from the queue for 30 minutes; running jobs finish
		this.admin.pause("crm-sync", Duration.ofMinutes(30));
		if (this.admin.isPaused("crm-sync")) {
			this.admin.resume("crm-sync"); // wakes idle listeners on every node
		}
	}

}
