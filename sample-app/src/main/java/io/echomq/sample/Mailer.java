package io.echomq.sample;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.stereotype.Component;

/**
 * Pretends to send email: logs it and keeps a record, which the tests read.
 *
 * @author EchoMQ
 */
@Component
public class Mailer {

	private static final Log logger = LogFactory.getLog(Mailer.class);

	private final List<String> sent = new CopyOnWriteArrayList<>();

	public void send(String to, String subject) {
		this.sent.add(to + ": " + subject);
		logger.info("Sent '" + subject + "' to " + to);
	}

	public List<String> sent() {
		return List.copyOf(this.sent);
	}

}
