package io.echomq.dashboard;

import java.util.ArrayList;
import java.util.List;

import io.echomq.core.EchoMqNode;
import io.echomq.core.JobId;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.listener.ListenerSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two nodes on one real server, each an application context with its own name: this
 * test's application (node A, with the dashboard) and a second one (node B) that listens
 * to a queue A does not. A's dashboard shows B's listener and its concurrency from the
 * queue's node registry, shows B as the owner of the job B runs, and stops showing B's
 * listener once B stopped. A partitioned queue keeps one entry per node, under its
 * logical name.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "spring.application.name=front")
class EchoMqDashboardNodesWebTests extends DashboardWebTestSupport {

	@Autowired
	private EchoMqNode node;

	private final List<AutoCloseable> cleanup = new ArrayList<>();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@AfterEach
	void tearDown() throws Exception {
		for (AutoCloseable each : this.cleanup) {
			each.close();
		}
	}

	@Test
	void anotherNodesListenerAndTheJobItRunsShouldShowUntilItStops() {
		String queue = DashboardTestApplication.unique("parcels");
		TestHandler held = new TestHandler();
		this.cleanup.add(held::release);
		OtherNode warehouse = OtherNode.start("warehouse", this.jobs.keyspace().prefix());
		this.cleanup.add(0, warehouse);
		String b = warehouse.node().name();
		assertThat(b).startsWith("warehouse ").isNotEqualTo(this.node.name());
		assertThat(this.node.name()).startsWith("front ");
		warehouse.listeners().register(queue, held, ListenerSettings.builder().concurrency(3).build());
		JobId job = this.template.enqueue(queue, "hold parcel 7");

		await().atMost(WAIT).untilAsserted(() -> {
			JsonNode summary = queue(this.client.get("/api/overview").json(), queue);
			assertThat(summary.get("listener").isNull()).as("no listener of A").isTrue();
			JsonNode nodes = summary.get("nodes");
			assertThat(nodes).hasSize(1);
			assertThat(nodes.get(0).get("node").asString()).isEqualTo(b);
			assertThat(nodes.get(0).get("concurrency").asInt()).isEqualTo(3);
			assertThat(nodes.get(0).get("self").asBoolean()).isFalse();
			assertThat(nodes.get(0).get("paused").asBoolean()).isFalse();
		});
		await().atMost(WAIT).until(() -> new QueueInspector(this.jobs).stats(queue).active() == 1);
		JsonNode active = this.client.get("/api/queues/" + queue + "/jobs?state=active").json().get("jobs").get(0);
		assertThat(active.get("id").asString()).isEqualTo(job.toString());
		assertThat(active.get("claimedBy").asString()).isEqualTo(b);
		JsonNode detail = this.client.get("/api/queues/" + queue + "/jobs/" + job).json();
		assertThat(detail.get("claimedBy").asString()).isEqualTo(b);
		assertThat(detail.get("fields").get("claimed_by").asString()).isEqualTo(b);
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(
					queue(this.client.get("/api/overview").json(), queue).get("nodes").get(0).get("inFlight").asInt())
				.isEqualTo(1));

		held.release();
		await().atMost(WAIT)
			.until(() -> new QueueInspector(this.jobs).stats(queue).counters().getOrDefault("completed", 0L) == 1);
		warehouse.close();
		assertThat(queue(this.client.get("/api/overview").json(), queue).get("nodes")).isEmpty();
		assertThat(this.client.get("/api/queues/" + queue).json().get("nodes")).isEmpty();
	}

	@Test
	void thisNodesOwnListenerShouldBeInTheRegistryAsSelf() {
		String queue = DashboardTestApplication.unique("own");
		this.listeners.register(queue, new TestHandler(), ListenerSettings.builder().concurrency(2).build());
		await().atMost(WAIT).untilAsserted(() -> {
			JsonNode nodes = this.client.get("/api/queues/" + queue).json().get("nodes");
			assertThat(nodes).hasSize(1);
			assertThat(nodes.get(0).get("node").asString()).isEqualTo(this.node.name());
			assertThat(nodes.get(0).get("self").asBoolean()).isTrue();
			assertThat(nodes.get(0).get("concurrency").asInt()).isEqualTo(2);
		});
	}

	@Test
	void aPartitionedQueueShouldHoldOneEntryPerNode() {
		String queue = DashboardTestApplication.unique("sharded");
		try (OtherNode warehouse = OtherNode.start("warehouse", this.jobs.keyspace().prefix(),
				"echomq.queues." + queue + ".partitions=3")) {
			warehouse.listeners().register(queue, new TestHandler(), ListenerSettings.builder().concurrency(5).build());
			QueueNodes registry = new QueueNodes(this.jobs);
			await().atMost(WAIT)
				.untilAsserted(() -> assertThat(registry.live(queue)).singleElement().satisfies((listener) -> {
					assertThat(listener.node()).isEqualTo(warehouse.node().name());
					assertThat(listener.concurrency()).isEqualTo(5);
				}));
			assertThat(warehouse.listeners().getContainer(queue).getPartitions()).hasSize(3);
		}
		assertThat(new QueueNodes(this.jobs).live(queue)).isEmpty();
	}

}
