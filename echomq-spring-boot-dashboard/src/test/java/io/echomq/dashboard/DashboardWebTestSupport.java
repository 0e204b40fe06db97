package io.echomq.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.Engine;
import io.echomq.dashboard.DashboardClient.Response;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.schedule.ScheduleSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the dashboard's web tests share: the application's port, template, admin, engine
 * and listener registry, a client of the dashboard at {@code /echomq}, the handlers a
 * test registered, released after it, and helpers that read the API's replies. Each
 * subclass keeps its own {@code @DynamicPropertySource} calling
 * {@link DashboardTestApplication#redis}, so that each test class has a context, and a
 * key prefix, of its own.
 *
 * @author EchoMQ
 */
abstract class DashboardWebTestSupport {

	static final Duration WAIT = Duration.ofSeconds(15);

	@LocalServerPort
	protected int port;

	@Autowired
	protected EchoJobListenerRegistry listeners;

	@Autowired
	protected EchoMqTemplate template;

	@Autowired
	protected EchoMqAdmin admin;

	@Autowired
	protected Engine jobs;

	protected QueueInspector inspector;

	protected DashboardClient client;

	private final List<TestHandler> handlers = new ArrayList<>();

	@BeforeEach
	void setUpClient() {
		this.inspector = new QueueInspector(this.jobs);
		this.client = new DashboardClient(this.port, "/echomq");
	}

	@AfterEach
	void releaseHandlers() {
		this.handlers.forEach(TestHandler::release);
	}

	/**
	 * Register a handler for the queue, released after the test.
	 * @param queue the queue
	 * @return the handler
	 */
	protected TestHandler listen(String queue) {
		TestHandler handler = new TestHandler();
		this.handlers.add(handler);
		this.listeners.register(queue, handler, ListenerSettings.builder().maxAttempts(1).concurrency(2).build());
		return handler;
	}

	/**
	 * Return the queue's statistics, read from the server.
	 * @param queue the queue
	 * @return the statistics
	 */
	protected QueueStats stats(String queue) {
		return this.inspector.stats(queue);
	}

	/**
	 * Return the entry of the named queue in an overview.
	 * @param overview the overview, as the API returns it
	 * @param name the queue
	 * @return the queue's entry
	 */
	protected static JsonNode queue(JsonNode overview, String name) {
		for (JsonNode queue : overview.get("queues")) {
			if (name.equals(queue.get("name").asString())) {
				return queue;
			}
		}
		throw new AssertionError("No queue " + name + " in " + overview);
	}

	/**
	 * Return the ids of a page of jobs.
	 * @param page the page, as the API returns it
	 * @return the ids, in page order
	 */
	protected static List<String> ids(JsonNode page) {
		List<String> ids = new ArrayList<>();
		page.get("jobs").forEach((job) -> ids.add(job.get("id").asString()));
		return ids;
	}

	/**
	 * Assert that a response is a client error with the given status and message.
	 * @param response the response
	 * @param status the status
	 * @param message a part of the message
	 */
	protected static void assertClientError(Response response, int status, String message) {
		assertThat(response.status()).as("%s", response).isEqualTo(status);
		assertThat(response.message()).contains(message);
	}

	/**
	 * Assert that the dashboard refused a write.
	 * @param response the reply to the write
	 * @param what the write, for the failure message
	 * @param reason what the refusal must say
	 */
	protected static void assertRefused(Response response, String what, String reason) {
		assertThat(response.status()).as("%s %s", what, response).isEqualTo(403);
		assertThat(response.message()).contains(reason);
	}

	/**
	 * Declare a daily schedule on the queue and assert that the client may not trigger
	 * it.
	 * @param client the client
	 * @param queue the queue
	 * @param schedule the schedule's name
	 * @param reason what the refusal must say
	 */
	protected void assertTriggerRefused(DashboardClient client, String queue, String schedule, String reason) {
		this.template.schedule(queue, schedule, ScheduleSpec.every(Duration.ofDays(1)), "tick");
		String trigger = "/api/schedules/" + queue + "/" + schedule + "/trigger";
		assertRefused(client.post(trigger), trigger, reason);
	}

}
