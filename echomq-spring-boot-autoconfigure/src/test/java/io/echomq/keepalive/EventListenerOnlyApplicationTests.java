package io.echomq.keepalive;

import java.time.Duration;
import java.util.List;

import io.echomq.events.JobEvent;
import io.echomq.events.JobEventStreamContainer;
import io.echomq.events.JobEventStreamListener;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A non-web application whose only EchoMQ part is a {@link JobEventStreamListener}, as
 * docs/events.md suggests: the event readers run on daemon threads, so once {@code run()}
 * returns only the container's keep-alive thread holds the JVM up, until the context
 * closes.
 *
 * @author EchoMQ
 */
class EventListenerOnlyApplicationTests {

	@Test
	void eventListenerOnlyApplicationHoldsANonDaemonThreadUntilClosed() {
		TestServer server = ListenerTestSupport.sharedServer();
		List<Thread> before = keepAliveThreads();
		SpringApplication application = new SpringApplication(EventListenerOnlyApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run("--spring.data.redis.host=" + server.host(),
				"--spring.data.redis.port=" + server.port(),
				"--echomq.key-prefix=" + ListenerTestSupport.uniquePrefix(), "--spring.main.banner-mode=off");
		try {
			assertThat(context.isRunning()).isTrue();
			assertThat(context.getBean(JobEventStreamContainer.class).isRunning()).isTrue();
			assertThat(keepAliveThreadsSince(before)).singleElement()
				.satisfies((thread) -> assertThat(thread.isDaemon()).isFalse());
		}
		finally {
			context.close();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> keepAliveThreadsSince(before).isEmpty());
	}

	private static List<Thread> keepAliveThreadsSince(List<Thread> before) {
		return keepAliveThreads().stream().filter((thread) -> !before.contains(thread)).toList();
	}

	private static List<Thread> keepAliveThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals(JobEventStreamContainer.KEEP_ALIVE_THREAD_NAME))
			.filter(Thread::isAlive)
			.toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class EventListenerOnlyApplication {

		@Bean
		JobEventStreamListener auditTrail() {
			return new JobEventStreamListener() {

				@Override
				public String queue() {
					return "keep-alive-audited";
				}

				@Override
				public String id() {
					return "audit-trail";
				}

				@Override
				public void onEvent(JobEvent event) {
				}

			};
		}

	}

}
