package io.echomq.dashboard;

import java.time.Duration;

import io.echomq.core.JobId;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.ListenerSettings;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read-only dashboard at a path of its own in an application with a context path,
 * showing payloads: every action is refused and changes nothing.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.read-only=true", "echomq.dashboard.path=/ops/queues",
				"echomq.dashboard.show-values=always", "server.servlet.context-path=/shop" })
class EchoMqDashboardReadOnlyWebTests extends DashboardWebTestSupport {

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void actionsShouldBeRefusedAndPayloadsShown() {
		String queue = DashboardTestApplication.unique("readonly");
		TestHandler handler = new TestHandler();
		this.listeners.register(queue, handler, ListenerSettings.builder().maxAttempts(1).build());
		JobId dead = this.template.enqueue(queue, "bad order 7");
		QueueInspector inspector = new QueueInspector(this.jobs);
		await().atMost(Duration.ofSeconds(15)).until(() -> inspector.stats(queue).dead() == 1);

		assertThat(new DashboardClient(this.port, "/shop/echomq").get("").status()).isEqualTo(404);
		DashboardClient client = new DashboardClient(this.port, "/shop/ops/queues");
		assertThat(client.open().status()).isEqualTo(200);
		assertThat(client.meta("base")).isEqualTo("/shop/ops/queues");
		assertThat(client.get("/api/queues/nowhere-to-be-seen").message()).contains("not known here");
		assertThat(client.get("/jobs/" + dead).headers().firstValue("Location"))
			.hasValue("/shop/ops/queues/queues/" + queue + "/jobs/" + dead);
		assertThat(client.meta("can-write")).isEqualTo("false");
		assertThat(client.meta("show-values")).isEqualTo("true");
		assertThat(client.get("/api/queues/" + queue + "/jobs?state=dead")
			.json()
			.get("jobs")
			.get(0)
			.get("payload")
			.asString()).isEqualTo("\"bad order 7\"");
		assertThat(client.get("/api/queues/" + queue + "/jobs/" + dead).json().get("payload").asString())
			.isEqualTo("\"bad order 7\"");

		handler.heal();
		for (String action : new String[] { "/jobs/" + dead + "/replay", "/jobs/" + dead + "/delete",
				"/jobs/" + dead + "/run", "/jobs/" + dead + "/cancel", "/dead/replay", "/dead/purge", "/pause",
				"/resume", "/cluster/pause", "/cluster/resume", "/limits?concurrency=3", "/limits/reset" }) {
			assertRefused(client.post("/api/queues/" + queue + action), action, "read-only");
		}
		assertTriggerRefused(client, queue, "read-only-tick", "read-only");
		assertThat(this.admin.isPaused(queue)).isFalse();
		assertThat(this.admin.limits(queue).storedConcurrency()).isNull();
		assertThat(inspector.stats(queue).pending()).isZero();
		assertThat(inspector.row(queue, dead)).containsEntry("state", "dead");
		assertThat(inspector.stats(queue).dead()).isEqualTo(1);
		assertThat(inspector.stats(queue).counters()).doesNotContainKeys("replayed", "purged");
		assertThat(this.listeners.getContainer(queue).isPaused()).isFalse();
		handler.release();
	}

}
