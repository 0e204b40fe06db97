package io.echomq.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobId;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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
 * The {@code echomq} endpoint over HTTP, with every auto-configuration of the class path,
 * on a real server: paths, status codes and JSON.
 *
 * @author EchoMQ
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=echomq,health",
				"management.endpoint.health.show-details=always", "echomq.listener.backoff.initial=0s",
				"echomq.maintenance.promote-interval=50ms" })
class EchoMqEndpointWebIntegrationTests {

	private static final String QUEUE = ObservabilityTestSupport.unique("web");

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private EchoJobListenerRegistry listeners;

	@Autowired
	private EchoMqTemplate template;

	private Engine engine;

	@Autowired
	void engine(EchoMqEngine engine) {
		this.engine = Engine.of(engine);
	}

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		TestServer server = ObservabilityTestSupport.server();
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
		registry.add("echomq.key-prefix", () -> ObservabilityTestSupport.unique("web"));
	}

	@Test
	void endpointShouldAnswerOverHttp() throws Exception {
		QueueListenerContainer container = this.listeners.register(QUEUE, (job, context) -> {
			if (job.payload().contains("bad")) {
				throw new IllegalArgumentException("no such customer");
			}
		}, ListenerSettings.builder().maxAttempts(1).concurrency(2).build());
		List<JobId> ids = this.template.enqueueAll(QUEUE, List.of("{\"customer\":\"good\"}", "{\"customer\":\"bad\"}"));
		await().atMost(Duration.ofSeconds(10)).until(() -> container.getDeadCount() == 1);

		JsonNode all = get("/actuator/echomq", 200);
		JsonNode queue = all.get("queues").get(QUEUE);
		assertThat(queue.get("dead").asLong()).isEqualTo(1);
		assertThat(queue.get("counters").get("completed").asLong()).isEqualTo(1);
		assertThat(queue.get("listener").get("concurrency").asInt()).isEqualTo(2);
		assertThat(queue.get("listener").get("running").asBoolean()).isTrue();

		assertThat(get("/actuator/echomq/queues/" + QUEUE, 200).get("dead").asLong()).isEqualTo(1);
		JsonNode links = get("/actuator", 200).get("_links");
		assertThat(links.get("echomq-queues-queue").get("href").asString()).endsWith("/actuator/echomq/queues/{queue}");
		assertThat(links.get("echomq-queues-queue-jobs-id").get("href").asString())
			.endsWith("/actuator/echomq/queues/{queue}/{jobs}/{id}");
		assertThat(links.get("echomq-queues-queue-dead").get("href").asString())
			.endsWith("/actuator/echomq/queues/{queue}/dead");
		assertThat(links.get("echomq-schedules").get("href").asString()).endsWith("/actuator/echomq/schedules");
		assertThat(links.get("echomq-schedules").get("templated").asBoolean()).isFalse();
		assertThat(links.get("echomq").get("href").asString()).endsWith("/actuator/echomq");
		assertThat(links.get("health").get("href").asString()).endsWith("/actuator/health");
		assertThat(links.toString()).as("only selectors that vary are listed as variables")
			.doesNotContain("{queues}", "{schedules}", "{dead}");
		get("/actuator/echomq/queues/" + ObservabilityTestSupport.unique("unknown"), 404);

		JsonNode dead = get("/actuator/echomq/queues/" + QUEUE + "/dead?offset=0&limit=10", 200);
		assertThat(dead.get("total").asLong()).isEqualTo(1);
		JsonNode job = dead.get("jobs").get(0);
		assertThat(job.get("id").asString()).isEqualTo(ids.get(1).toString());
		assertThat(job.get("lastError").asString()).contains("no such customer");
		assertThat(job.get("payload").asString()).isEqualTo("******");
		get("/actuator/echomq/queues/" + QUEUE + "/dead?limit=nope", 400);

		assertThat(get("/actuator/echomq/queues/" + QUEUE + "/audit", 200).get("clean").asBoolean()).isTrue();

		assertThat(post("/actuator/echomq/queues/" + QUEUE + "/pause", 200).get("paused").asBoolean()).isTrue();
		JsonNode replay = post("/actuator/echomq/queues/" + QUEUE + "/dead/" + ids.get(1) + "/replay", 200);
		assertThat(replay.get("state").asString()).isEqualTo("pending");
		assertThat(post("/actuator/echomq/queues/" + QUEUE + "/dead/JOBforged/replay", 400).get("message").asString())
			.contains("Invalid JOB id");
		post("/actuator/echomq/queues/" + QUEUE + "/dead/" + JobId.mint() + "/replay", 404);
		assertThat(post("/actuator/echomq/queues/" + QUEUE + "/resume", 200).get("paused").asBoolean()).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> container.getDeadCount() == 2);
		assertThat(send(HttpRequest.newBuilder(uri("/actuator/echomq/queues/" + QUEUE + "/dead")).DELETE(), 200)
			.get("purged")
			.asLong()).isEqualTo(1);

		JsonNode health = get("/actuator/health", 200).get("components").get("echomq");
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("details").get("listeners").get(QUEUE).get("pollerAlive").asBoolean()).isTrue();
	}

	@Test
	void storedResultShouldBeReadOverHttpSanitized() throws Exception {
		String queue = ObservabilityTestSupport.unique("results");
		JobId id = this.template.enqueue(queue, "x");
		ClaimedJob job = this.engine.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.engine.outcomes().complete(queue, id, job.token(), null, "{\"total\":3}").isApplied()).isTrue();
		JsonNode result = get("/actuator/echomq/queues/" + queue + "/jobs/" + id + "/result", 200);
		assertThat(result.get("id").asString()).isEqualTo(id.toString());
		assertThat(result.get("size").asLong()).isEqualTo(11);
		assertThat(result.get("result").asString()).isEqualTo("******");
		get("/actuator/echomq/queues/" + queue + "/jobs/" + JobId.mint() + "/result", 404);
		assertThat(get("/actuator/echomq/queues/" + queue + "/jobs/JOBforged/result", 400).get("message").asString())
			.contains("Invalid JOB id");
	}

	@Test
	void flowShouldBeReadFromAnyOfItsJobs() throws Exception {
		String done = ObservabilityTestSupport.unique("done");
		String mail = ObservabilityTestSupport.unique("mail");
		FlowJob root = this.template.flow(FlowSpec.job(done, "root")
			.child(FlowSpec.job(mail, "mail"))
			.child(FlowSpec.job(done, "step").child(FlowSpec.job(mail, "leaf"))));
		FlowJob first = root.children().get(0);
		FlowJob leaf = root.children().get(1).children().get(0);
		ClaimedJob job = this.engine.claims()
			.claim(mail, Duration.ofSeconds(30), 2)
			.stream()
			.filter((claimed) -> claimed.id().equals(first.id()))
			.findFirst()
			.orElseThrow();
		assertThat(this.engine.outcomes().complete(mail, job.id(), job.token(), null, "{\"sent\":true}").isApplied())
			.isTrue();
		String path = "/actuator/echomq/queues/" + mail + "/jobs/" + leaf.id() + "/flow";
		// the child is in another queue (slot): its record reaches the root through the
		// relay, which this node runs at once
		await().atMost(Duration.ofSeconds(10))
			.until(() -> get(path, 200).get("jobs").get(0).get("childrenLeft").asInt() == 1);
		JsonNode flow = get(path, 200);
		assertThat(flow.get("root").asString()).isEqualTo(done + "/" + root.id());
		assertThat(flow.get("asked").asString()).isEqualTo(mail + "/" + leaf.id());
		assertThat(flow.get("known").asLong()).isEqualTo(4);
		assertThat(flow.get("truncated").asBoolean()).isFalse();
		JsonNode jobs = flow.get("jobs");
		assertThat(jobs).hasSize(4);
		assertThat(jobs.get(0).get("id").asString()).isEqualTo(root.id().toString());
		assertThat(jobs.get(0).get("state").asString()).isEqualTo("waiting");
		assertThat(jobs.get(0).get("childrenLeft").asInt()).isEqualTo(1);
		assertThat(jobs.get(0).get("children")).hasSize(2);
		assertThat(jobs.get(1).get("ref").asString()).isEqualTo(mail + "/" + first.id());
		assertThat(jobs.get(1).get("state").asString()).isEqualTo("completed");
		assertThat(jobs.get(1).get("result").asString()).isEqualTo("******");
		assertThat(jobs.get(1).get("parent").asString()).isEqualTo(done + "/" + root.id());
		assertThat(jobs.get(3).get("id").asString()).isEqualTo(leaf.id().toString());
		assertThat(jobs.get(3).get("depth").asInt()).isEqualTo(2);
		assertThat(jobs.get(3).get("state").asString()).isEqualTo("active");
		assertThat(flow.get("counts").get("waiting").asLong()).isEqualTo(2);
		assertThat(flow.get("counts").get("active").asLong()).isEqualTo(1);
		assertThat(flow.get("counts").get("completed").asLong()).isEqualTo(1);
		get("/actuator/echomq/queues/" + mail + "/jobs/" + JobId.mint() + "/flow", 404);
		get("/actuator/echomq/queues/" + mail + "/jobs/JOBforged/flow", 400);
		get("/actuator/echomq/queues/" + mail + "/jobs/" + leaf.id() + "/tree", 404);
	}

	@Test
	void batchShouldBeReadWithItsCountsAndCallbacksAndListedWhileOpen() throws Exception {
		String home = ObservabilityTestSupport.unique("batches");
		String pages = ObservabilityTestSupport.unique("pages");
		BatchJob sealed = this.template.batch(BatchSpec.in(home)
			.jobs(List.of(FlowSpec.job(pages, "p1"), FlowSpec.job(pages, "p2")))
			.onSuccess(FlowSpec.job(home, "publish"))
			.onDeath(FlowSpec.job(home, "alert")));
		BatchJob open = this.template.batch(BatchSpec.in(home).onComplete(FlowSpec.job(home, "all")).open());
		ClaimedJob page = this.engine.claims().claim(pages, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.engine.outcomes().complete(pages, page.id(), page.token(), null, null).isApplied()).isTrue();
		String path = "/actuator/echomq/queues/" + home + "/batches/" + sealed.id();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(get(path, 200).get("completed").asLong()).isOne());
		JsonNode batch = get(path, 200);
		assertThat(batch.get("state").asString()).isEqualTo("sealed");
		assertThat(batch.get("total").asLong()).isEqualTo(2);
		assertThat(batch.get("pending").asLong()).isOne();
		assertThat(batch.get("dead").asLong()).isZero();
		assertThat(batch.get("createdAt").asLong()).isPositive();
		assertThat(batch.get("callbacks")).hasSize(2);
		assertThat(batch.get("callbacks").get(0).get("kind").asString()).isEqualTo("success");
		assertThat(batch.get("callbacks").get(0).get("ref").asString()).isEqualTo(home + "/" + sealed.onSuccess().id());
		assertThat(batch.get("callbacks").get(1).get("kind").asString()).isEqualTo("death");
		JsonNode listing = get("/actuator/echomq/queues/" + home + "/batches", 200);
		assertThat(listing.get("count").asLong()).isEqualTo(2);
		assertThat(listing.get("batches").get(0).get("id").asString()).isEqualTo(sealed.id().toString());
		assertThat(listing.get("batches").get(1).get("id").asString()).isEqualTo(open.id().toString());
		assertThat(listing.get("batches").get(1).get("state").asString()).isEqualTo("open");
		get("/actuator/echomq/queues/" + home + "/batches/" + JobId.mint(), 404);
		assertThat(get("/actuator/echomq/queues/" + home + "/batches/JOBforged", 400).get("message").asString())
			.contains("Invalid JOB id");
		get("/actuator/echomq/queues/bad%20name/batches", 400);
	}

	@Test
	void jobShouldCarryItsProgressSanitized() throws Exception {
		String queue = ObservabilityTestSupport.unique("progress");
		JobId id = this.template.enqueue(queue, "x");
		String path = "/actuator/echomq/queues/" + queue + "/jobs/" + id;
		JsonNode pending = get(path, 200);
		assertThat(pending.get("state").asString()).isEqualTo("pending");
		assertThat(pending.has("progress")).as("the actuator leaves out what is null").isFalse();
		assertThat(pending.has("progressData")).isFalse();
		ClaimedJob job = this.engine.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		assertThat(this.engine.outcomes().progress(queue, id, job.token(), 65).isApplied()).isTrue();
		assertThat(this.engine.outcomes().progress(queue, id, job.token(), "{\"step\":2}").isApplied()).isTrue();
		JsonNode running = get(path, 200);
		assertThat(running.get("id").asString()).isEqualTo(id.toString());
		assertThat(running.get("state").asString()).isEqualTo("active");
		assertThat(running.get("attempts").asLong()).isEqualTo(1);
		assertThat(running.get("progress").asInt()).isEqualTo(65);
		assertThat(running.get("progressData").asString()).isEqualTo("******");
		assertThat(running.get("payload").asString()).isEqualTo("******");
		get("/actuator/echomq/queues/" + queue + "/jobs/" + JobId.mint(), 404);
		assertThat(get("/actuator/echomq/queues/" + queue + "/jobs/JOBforged", 400).get("message").asString())
			.contains("Invalid JOB id");
	}

	private JsonNode get(String path, int status) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET(), status);
	}

	private JsonNode post(String path, int status) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{}")), status);
	}

	private JsonNode send(HttpRequest.Builder request, int status) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as("%s %s", response.uri(), response.body()).isEqualTo(status);
		return response.body().isEmpty() ? this.json.createObjectNode() : this.json.readTree(response.body());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WebApplication {

	}

}
