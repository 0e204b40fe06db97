package com.example.docs;

import io.echomq.crypto.QueueEncryption;
import io.echomq.events.JobEvent;
import io.echomq.events.JobEventStreamListener;
import io.echomq.events.JobEventType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

// declared as a bean, with the QueueEncryption bean the auto-configuration provides
class LiveProgress implements JobEventStreamListener {

	private static final Log logger = LogFactory.getLog(LiveProgress.class);

	private final QueueEncryption encryption;

	LiveProgress(QueueEncryption encryption) {
		this.encryption = encryption;
	}

	@Override
	public String queue() {
		return "payments";
	}

	@Override
	public String id() {
		return "live-progress";
	}

	// every copy of the application hears every event, through a group of its own
	@Override
	public boolean broadcast() {
		return true;
	}

	@Override
	public void onEvent(JobEvent event) {
		if (event.type() == JobEventType.PROGRESS) {
			// an encrypted queue's stream holds ciphertext: read it through the
			// encryption
			logger.info(event.id() + " at " + event.decrypt(this.encryption).progress());
		}
	}

}
