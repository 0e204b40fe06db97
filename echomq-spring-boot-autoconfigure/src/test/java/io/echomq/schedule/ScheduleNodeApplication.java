package io.echomq.schedule;

import io.echomq.annotation.EchoSchedule;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration;
import io.echomq.test.ChildJvm;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * One node of an application that declares a schedule firing every second: the same
 * declaration runs in the test JVM and, through {@link #main}, in a child JVM (with only
 * the auto-configuration a schedule needs, to start fast). The child prints
 * {@value #READY} once its schedule tick runs, and ends when its standard input closes.
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
		EchoMqAutoConfiguration.class, EchoMqScheduleAutoConfiguration.class })
@Import(ScheduleNodeApplication.Declared.class)
public class ScheduleNodeApplication {

	static final String READY = "SCHEDULE NODE READY";

	static final String QUEUE = "every-second";

	static final String NAME = "tick";

	public static void main(String[] args) {
		ChildJvm.onParentExit(() -> System.exit(1));
		SpringApplication application = new SpringApplication(ScheduleNodeApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
		System.out.println(READY);
		System.out.flush();
	}

	/**
	 * The declaration every node makes; nothing consumes the queue, so each occurrence
	 * stays in pending, where the test counts it.
	 */
	static class Declared {

		@EchoSchedule(queue = QUEUE, name = NAME, every = "1s", payload = "tick")
		void tick() {
		}

	}

}
