package com.example.docs;

import io.echomq.events.JobEvent;
import io.echomq.events.JobEventGap;
import io.echomq.events.JobEventStreamListener;
import io.echomq.events.JobEventType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

@Component
class AuditTrail implements JobEventStreamListener {

	private static final Log logger = LogFactory.getLog(AuditTrail.class);

	@Override
	public String queue() {
		return "quotes";
	}

	@Override
	public String id() {
		// the consumer group: where this listener resumes after a restart
		return "audit-trail";
	}

	@Override
	public void onEvent(JobEvent event) {
		if (event.type() == JobEventType.DEAD) {
			logger.warn(event.id() + " died after " + event.attempts() + " attempts: " + event.error());
		}
	}

	@Override
	public void onGap(JobEventGap gap) {
		logger.warn("missed " + gap.missed() + " events of " + gap.queue());
	}

}
