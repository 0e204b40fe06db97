package io.echomq.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every write of the {@code echomq} endpoint over a real port, as a page on another site
 * could send it: a bare {@code POST}, a form or a text body (the requests a browser sends
 * without a CORS preflight) must change nothing; a JSON body does the write; with
 * {@code management.endpoint.echomq.access=read-only} no write runs at all.
 *
 * @author EchoMQ
 */
class EchoMqEndpointWriteProtectionTests {

	private static final String FOREIGN_ORIGIN = "https://evil.example";

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		TestServer server = ObservabilityTestSupport.server();
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
		registry.add("echomq.key-prefix", () -> ObservabilityTestSupport.unique("csrf"));
	}

	abstract static class Writes {

		final String queue = ObservabilityTestSupport.unique("writes");

		final String later = ObservabilityTestSupport.unique("later");

		final HttpClient http = HttpClient.newHttpClient();

		@LocalServerPort
		int port;

		@Autowired
		EchoJobListenerRegistry listeners;

		@Autowired
		EchoMqTemplate template;

		@Autowired
		EchoMqAdmin admin;

		@Autowired
		Engine jobs;

		QueueInspector inspector;

		QueueListenerContainer container;

		JobId dead;

		JobId scheduled;

		@BeforeEach
		void jobs() {
			this.inspector = new QueueInspector(this.jobs);
			this.container = this.listeners.register(this.queue, (job, context) -> {
				throw new IllegalStateException("no such customer");
			}, ListenerSettings.builder().maxAttempts(1).build());
			this.dead = this.template.enqueue(this.queue, "bad customer");
			await().atMost(Duration.ofSeconds(10)).until(() -> this.inspector.stats(this.queue).dead() == 1);
			this.scheduled = this.template.enqueue(this.later, "later", EnqueueOptions.delayed(Duration.ofHours(1)));
			this.template.schedule(this.later, "nightly", ScheduleSpec.every(Duration.ofDays(1)), "tick");
		}

		List<String> writes() {
			String queues = "/actuator/echomq/queues/";
			return List.of(queues + this.queue + "/pause", queues + this.queue + "/resume",
					queues + this.queue + "/pause?scope=cluster", queues + this.queue + "/resume?scope=cluster",
					queues + this.queue + "/dead/" + this.dead + "/replay",
					queues + this.later + "/jobs/" + this.scheduled + "/cancel",
					"/actuator/echomq/schedules/" + this.later + "/nightly/trigger",
					"/actuator/echomq/schedules/" + this.later + "/nightly/pause",
					queues + this.queue + "/limits?concurrency=3");
		}

		void assertNothingChanged() {
			assertThat(this.container.isPaused()).isFalse();
			assertThat(this.admin.isPaused(this.queue)).isFalse();
			assertThat(this.inspector.row(this.queue, this.dead)).containsEntry("state", "dead");
			assertThat(this.inspector.row(this.later, this.scheduled)).containsEntry("state", "schedule");
			assertThat(this.inspector.stats(this.later).pending()).isZero();
			assertThat(this.admin.limits(this.queue).storedConcurrency()).isNull();
			assertThat(this.template.schedules(this.later)).singleElement()
				.satisfies((schedule) -> assertThat(schedule.paused()).isFalse());
		}

		HttpResponse<String> post(String path, String contentType, String body)
				throws IOException, InterruptedException {
			HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
				.header("Origin", FOREIGN_ORIGIN)
				.POST((body != null) ? BodyPublishers.ofString(body) : BodyPublishers.noBody());
			if (contentType != null) {
				request.header("Content-Type", contentType);
			}
			return this.http.send(request.build(), BodyHandlers.ofString());
		}

	}

	@Nested
	@SpringBootTest(classes = WebApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = "management.endpoints.web.exposure.include=echomq")
	class ReadWrite extends Writes {

		@Test
		void requestsAPageCanSendWithoutAPreflightShouldChangeNothing() throws Exception {
			for (String write : writes()) {
				assertThat(post(write, null, null).statusCode()).as("bare POST %s", write).isEqualTo(415);
				assertThat(post(write, "application/x-www-form-urlencoded", "reason=x").statusCode())
					.as("form POST %s", write)
					.isEqualTo(415);
				assertThat(post(write, "text/plain", "{}").statusCode()).as("text POST %s", write).isEqualTo(415);
				assertThat(post(write, "multipart/form-data; boundary=b", "--b--").statusCode())
					.as("multipart POST %s", write)
					.isEqualTo(415);
			}
			assertNothingChanged();
		}

		@Test
		void everyWriteShouldTakeAJsonBody() throws Exception {
			for (String write : writes()) {
				HttpResponse<String> response = post(write, "application/json", "{\"reason\":\"ops ticket 42\"}");
				assertThat(response.statusCode()).as("%s %s", write, response.body()).isEqualTo(200);
			}
			assertThat(this.inspector.row(this.later, this.scheduled)).isEmpty();
			assertThat(this.inspector.stats(this.later).pending()).isEqualTo(1);
			assertThat(this.template.schedules(this.later).get(0).paused()).isTrue();
			HttpResponse<String> scoped = post("/actuator/echomq/queues/" + this.queue + "/pause", "application/json",
					"{\"scope\":\"cluster\",\"duration\":\"1m\"}");
			assertThat(scoped.statusCode()).as(scoped.body()).isEqualTo(200);
			assertThat(this.admin.isPaused(this.queue)).isTrue();
			assertThat(this.admin.limits(this.queue).storedConcurrency()).isEqualTo(3);
			String limits = "/actuator/echomq/queues/" + this.queue + "/limits";
			HttpResponse<String> rate = post(limits, "application/json",
					"{\"rateLimit\":20,\"period\":\"1s\",\"maxActive\":4,\"reason\":\"partner API\"}");
			assertThat(rate.statusCode()).as(rate.body()).isEqualTo(200);
			assertThat(rate.body()).contains("\"storedConcurrency\":3").contains("\"rateLimit\":20");
			assertThat(this.admin.limits(this.queue).stored())
				.isEqualTo(new FlowLimits(4, new FlowLimits.RateLimit(20, Duration.ofSeconds(1))));
			HttpResponse<String> refused = post(limits, "application/json", "{\"rateLimit\":-5,\"period\":\"1s\"}");
			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
			assertThat(post(limits, "application/json", "{\"rateLimit\":5}").statusCode()).isEqualTo(400);
			assertThat(post(limits, "application/json", "{\"reset\":\"burst\"}").statusCode()).isEqualTo(400);
			assertThat(this.admin.limits(this.queue).stored().maxActive()).isEqualTo(4);
			HttpResponse<String> reset = post(limits, "application/json", "{\"reset\":\"rate-limit,concurrency\"}");
			assertThat(reset.statusCode()).as(reset.body()).isEqualTo(200);
			assertThat(this.admin.limits(this.queue).stored()).isEqualTo(new FlowLimits(4, null));
			assertThat(this.admin.limits(this.queue).storedConcurrency()).isNull();
			HttpRequest read = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + limits)).build();
			HttpResponse<String> shown = this.http.send(read, BodyHandlers.ofString());
			assertThat(shown.statusCode()).isEqualTo(200);
			assertThat(shown.body()).contains("\"configuredConcurrency\":4").contains("\"effectiveConcurrency\":4");
			this.admin.resetLimits(this.queue);
		}

	}

	@Nested
	@SpringBootTest(classes = WebApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
			"management.endpoints.web.exposure.include=echomq", "management.endpoint.echomq.access=read-only" })
	class ReadOnly extends Writes {

		@Test
		void everyWriteShouldBeRefused() throws Exception {
			for (String write : writes()) {
				HttpResponse<String> response = post(write, "application/json", "{}");
				assertThat(response.statusCode()).as("%s %s", write, response.body()).isIn(404, 405);
			}
			HttpRequest purge = HttpRequest
				.newBuilder(
						URI.create("http://localhost:" + this.port + "/actuator/echomq/queues/" + this.queue + "/dead"))
				.DELETE()
				.build();
			assertThat(this.http.send(purge, BodyHandlers.ofString()).statusCode()).isIn(404, 405);
			HttpRequest deleteSchedule = HttpRequest
				.newBuilder(URI
					.create("http://localhost:" + this.port + "/actuator/echomq/schedules/" + this.later + "/nightly"))
				.DELETE()
				.build();
			assertThat(this.http.send(deleteSchedule, BodyHandlers.ofString()).statusCode()).isIn(404, 405);
			assertNothingChanged();
			HttpRequest read = HttpRequest
				.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/echomq/queues/" + this.queue))
				.build();
			assertThat(this.http.send(read, BodyHandlers.ofString()).statusCode()).isEqualTo(200);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WebApplication {

	}

}
