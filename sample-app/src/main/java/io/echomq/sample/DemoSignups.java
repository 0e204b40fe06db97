package io.echomq.sample;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Makes a few sign-ups at start-up so the log shows jobs flowing.
 *
 * @author EchoMQ
 */
@Component
public class DemoSignups implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(DemoSignups.class);

	private final SignupService signups;

	private final int count;

	public DemoSignups(SignupService signups, SampleProperties properties) {
		this.signups = signups;
		this.count = properties.demoSignups();
	}

	@Override
	public void run(ApplicationArguments args) {
		for (int i = 1; i <= this.count; i++) {
			this.signups.signUp(new Signup("user" + i + "@example.com", "User " + i));
		}
		if (this.count > 0) {
			logger.info("Made " + this.count + " demo sign-ups; POST /signups to make more, "
					+ "GET /actuator/echomq to watch the queues");
		}
	}

}
