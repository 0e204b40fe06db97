package io.echomq.keepalive;

import io.echomq.annotation.EchoJob;
import io.echomq.test.ChildJvm;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * A non-web application whose only work is an {@code @EchoJob} listener, as a user writes
 * a worker: {@code main} returns once the context started, so only the listener can keep
 * the JVM up. Run in a child JVM by {@link WorkerOnlyApplicationTests}; it also ends when
 * its standard input closes (the test JVM is gone).
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@Import(WorkerOnlyApplication.Tasks.class)
public class WorkerOnlyApplication {

	static final String QUEUE = "keep-alive-tasks";

	public static void main(String[] args) {
		ChildJvm.onParentExit(() -> System.exit(1));
		SpringApplication application = new SpringApplication(WorkerOnlyApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
		System.out.println("MAIN RETURNED");
		System.out.flush();
	}

	record Task(int number) {
	}

	static class Tasks {

		@EchoJob(queue = QUEUE, concurrency = "2")
		void handle(Task task) throws InterruptedException {
			// simulated work, so that the jobs take longer than the start-up
			Thread.sleep(20);
		}

	}

}
