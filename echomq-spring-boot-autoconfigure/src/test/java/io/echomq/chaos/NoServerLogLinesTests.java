package io.echomq.chaos;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.events.JobEvent;
import io.echomq.events.JobEventStreamContainer;
import io.echomq.events.JobEventStreamListener;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application started with no server where it is pointed (a closed port), as a
 * newcomer runs {@code java -jar} without Redis: the event reader logs one line per
 * attempt, without a stack trace, waiting longer each time, and one line when the server
 * comes.
 *
 * @author EchoMQ
 */
@ExtendWith(OutputCaptureExtension.class)
class NoServerLogLinesTests {

	private static final Pattern READER_WARNING = Pattern
		.compile("Could not read the job events of audited for listener 'audit-trail' \\(.*\\); trying again in "
				+ "(\\d+) ms");

	private static final String READER_BACK = "Reading the job events of audited for listener 'audit-trail' again";

	private static final List<JobEvent> heard = new CopyOnWriteArrayList<>();

	@Test
	void eventReaderLogsOneLinePerAttemptWithAGrowingWaitAndOneWhenTheServerComes(CapturedOutput output)
			throws IOException {
		int port = closedPort();
		SpringApplication application = new SpringApplication(EventListenerApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + port, "--echomq.key-prefix=" + ListenerTestSupport.uniquePrefix(),
				"--echomq.queues.audited.events.enabled=true", "--spring.main.banner-mode=off")) {
			// 100, 200, 400, 400, 400 ms: the waits of the first five attempts
			await().atMost(Duration.ofSeconds(30)).until(() -> waits(output).size() >= 5);
			assertThat(waits(output).subList(0, 5)).containsExactly(100L, 200L, 400L, 400L, 400L);
			assertThat(output.getOut()).as("stack traces of the reader")
				.doesNotContain("at io.echomq.events.JobEventStreamReader.run");
			try (TestServer server = TestRedisServer.startOwned(ServerOptions.defaults().withPort(port))) {
				await().atMost(Duration.ofSeconds(30)).until(() -> output.getOut().contains(READER_BACK));
				int attempts = waits(output).size();
				assertThat(output.getOut().split(Pattern.quote(READER_BACK), -1)).hasSize(2);
				// reading again: the events of a job enqueued now arrive, with no further
				// warning
				context.getBean(EchoMqTemplate.class).enqueue("audited", "x");
				await().atMost(Duration.ofSeconds(30)).until(() -> !heard.isEmpty());
				assertThat(waits(output)).hasSize(attempts);
			}
		}
	}

	@Test
	void everyComponentLogsOneLineInItsFirstBackOffStep(CapturedOutput output) throws IOException {
		int port = closedPort();
		SpringApplication application = new SpringApplication(WorkerApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + port, "--echomq.key-prefix=" + ListenerTestSupport.uniquePrefix(),
				"--spring.main.banner-mode=off")) {
			// the window: the event reader's first six attempts (1.5 s); every other
			// component's first step is longer (a poller's 10 s, the maintenance's 30 s)
			await().atMost(Duration.ofSeconds(30)).until(() -> waits(output).size() >= 6);
			List<String> warnings = output.getOut()
				.lines()
				.filter((line) -> line.contains(" WARN ") || line.contains(" ERROR "))
				.toList();
			assertThat(warnings).filteredOn((line) -> line.contains("JobPoller"))
				.hasSize(3)
				.anySatisfy((line) -> assertThat(line).contains("queue 'mail'"))
				.anySatisfy((line) -> assertThat(line).contains("queue 'sms'"))
				.anySatisfy((line) -> assertThat(line).contains("queue 'push'"));
			// the poller of each queue says that the server is unreachable; its beacon
			// and its start-up check do not say it again
			assertThat(warnings).noneMatch((line) -> line.contains("ListenerBeacon"))
				.noneMatch((line) -> line.contains("QueueListenerContainer"));
			assertThat(warnings).filteredOn((line) -> line.contains("PartitionCountVerifier"))
				.singleElement()
				.satisfies((line) -> assertThat(line).contains("queues '").contains("'mail'", "'sms'", "'push'"));
			assertThat(warnings).filteredOn((line) -> line.contains("RedisConnectionReport"))
				.singleElement()
				.satisfies((line) -> assertThat(line).contains("standalone at 127.0.0.1:" + port));
			assertThat(output.getOut()).doesNotContain("\tat ");
		}
	}

	private static List<Long> waits(CapturedOutput output) {
		Matcher matcher = READER_WARNING.matcher(output.getOut());
		return matcher.results().map((result) -> Long.parseLong(result.group(1))).toList();
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@Import(EventListenerApplication.class)
	static class WorkerApplication {

		@EchoJob(queue = "mail")
		void mail(String payload) {
		}

		@EchoJob(queue = "sms")
		void sms(String payload) {
		}

		@EchoJob(queue = "push")
		void push(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class EventListenerApplication {

		@Bean
		static BeanPostProcessor shortRetries() {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessBeforeInitialization(Object bean, String beanName) {
					if (bean instanceof JobEventStreamContainer container) {
						container.setRetryBackoff(Duration.ofMillis(100), Duration.ofMillis(400));
					}
					return bean;
				}

			};
		}

		@Bean
		JobEventStreamListener auditTrail() {
			return new JobEventStreamListener() {

				@Override
				public String queue() {
					return "audited";
				}

				@Override
				public String id() {
					return "audit-trail";
				}

				@Override
				public void onEvent(JobEvent event) {
					heard.add(event);
				}

			};
		}

	}

}
