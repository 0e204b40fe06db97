package io.echomq.test;

import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.context.ApplicationListener;

/**
 * Tells {@link SharedServers} that a Spring application starts in this JVM, so that the
 * shared servers are released at exit only after Spring Boot's shutdown hook closed its
 * contexts. Registered in {@code META-INF/spring.factories}.
 *
 * @author EchoMQ
 */
final class SpringApplicationWatch implements ApplicationListener<ApplicationStartingEvent> {

	@Override
	public void onApplicationEvent(ApplicationStartingEvent event) {
		SharedServers.springApplicationStarting();
	}

}
