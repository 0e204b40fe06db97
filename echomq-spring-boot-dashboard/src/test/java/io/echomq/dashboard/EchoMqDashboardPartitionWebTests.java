package io.echomq.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.dashboard.DashboardClient.Response;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueStats;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard over real HTTP on partitioned queues, lanes and flow limits, on one real
 * server (every slot on one node): sums and per-partition counts, pages of every
 * partition or of one, a job found and acted on in the partition its id names, each
 * queue-wide action on every partition, lanes with their pending sizes, configured limits
 * with their per-partition split, and a timed pause's time left.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.queues.shards.partitions=4", "echomq.queues.shards.max-active=8",
				"echomq.queues.shards.rate-limit.limit=40", "echomq.queues.shards.rate-limit.period=1s",
				"echomq.queues.parcels.partitions=3", "echomq.queues.bulk.partitions=2",
				"echomq.queues.regions.partitions=2", "echomq.queues.regions.lanes.max-active=1",
				"echomq.queues.regions.lanes.rate-limit.limit=5", "echomq.queues.regions.lanes.rate-limit.period=1m" })
class EchoMqDashboardPartitionWebTests extends DashboardWebTestSupport {

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void partitionedQueueShouldShowSumsPartitionsPagesAndLimits() {
		QueuePartitions partitions = QueuePartitions.of("shards", 4);
		List<JobId> ids = this.template.enqueueAll("shards", List.of("a", "b", "c", "d", "e", "f", "g", "h"));
		assertThat(ids.stream().map(JobId::partition).distinct()).as("round-robin over the partitions").hasSize(4);

		JsonNode shards = queue(this.client.get("/api/overview").json(), "shards");
		assertThat(shards.get("counts").get("pending").asLong()).isEqualTo(8);
		JsonNode flow = shards.get("flow");
		assertThat(flow.get("partitionCount").asInt()).isEqualTo(4);
		List<String> names = new ArrayList<>();
		long summed = 0;
		for (JsonNode partition : flow.get("partitions")) {
			names.add(partition.get("name").asString());
			assertThat(partition.get("index").asInt()).isEqualTo(names.size() - 1);
			assertThat(partition.get("node").isNull()).as("not a cluster").isTrue();
			long pending = partition.get("counts").get("pending").asLong();
			assertThat(pending).isEqualTo(stats(partition.get("name").asString()).pending()).isEqualTo(2);
			summed += pending;
		}
		assertThat(names).isEqualTo(partitions.names());
		assertThat(summed).isEqualTo(8);
		assertThat(this.inspector.stats("shards").pending()).as("the logical name's own keys are empty").isZero();
		JsonNode limits = flow.get("limits");
		assertThat(limits.get("maxActive").asInt()).isEqualTo(8);
		assertThat(limits.get("rateLimit").asInt()).isEqualTo(40);
		assertThat(limits.get("ratePeriodMillis").asLong()).isEqualTo(1000);
		assertThat(limits.get("laneMaxActive").isNull()).isTrue();
		assertThat(limits.get("perPartition").get("maxActive").asInt()).isEqualTo(2);
		assertThat(limits.get("perPartition").get("rateLimit").asInt()).isEqualTo(10);
		assertThat(flow.get("pauseLeftMillis").isNull()).isTrue();

		List<String> merged = new ArrayList<>();
		for (int offset = 0; offset < 8; offset += 3) {
			JsonNode page = this.client.get("/api/queues/shards/jobs?state=pending&limit=3&offset=" + offset).json();
			assertThat(page.get("total").asLong()).isEqualTo(8);
			assertThat(page.get("partitionCount").asInt()).isEqualTo(4);
			assertThat(page.get("mergedWindow").asInt()).isEqualTo(EchoMqDashboard.MAX_MERGED);
			assertThat(page.get("partition").isNull()).isTrue();
			for (String id : ids(page)) {
				assertThat(page.get("partitions").get(id).asString()).isEqualTo(partitions.nameOf(JobId.parse(id)));
				merged.add(id);
			}
		}
		assertThat(merged).as("every job once, across the pages")
			.hasSize(8)
			.containsExactlyInAnyOrderElementsOf(ids.stream().map(JobId::toString).toList());
		List<String> reversed = new ArrayList<>(ids.stream().map(JobId::toString).toList());
		Collections.sort(reversed, Collections.reverseOrder());
		assertThat(merged).as("one order over every partition: ties of score by highest id").isEqualTo(reversed);
		JsonNode one = this.client.get("/api/queues/shards/jobs?state=pending&partition=2").json();
		assertThat(one.get("partition").asInt()).isEqualTo(2);
		assertThat(one.get("total").asLong()).isEqualTo(2);
		assertThat(one.get("mergedWindow").isNull()).isTrue();
		assertThat(ids(one)).hasSize(2).allSatisfy((id) -> assertThat(JobId.parse(id).partition()).isEqualTo(2));

		JobId third = ids.get(2);
		JsonNode job = this.client.get("/api/queues/shards/jobs/" + third).json();
		assertThat(job.get("state").asString()).isEqualTo("pending");
		assertThat(job.get("partition").asString()).isEqualTo(partitions.nameOf(third));
		assertThat(this.client.get("/api/jobs/" + third).json().get("queue").asString()).isEqualTo("shards");
		assertThat(this.client.get("/queues/shards/jobs/" + third).status()).isEqualTo(200);

		JobId stranger = JobId.mint(7);
		assertClientError(this.client.get("/api/queues/shards/jobs/" + stranger), 400,
				"names partition 7, but queue 'shards' has 4 partition(s)");
		assertThat(this.client.get("/queues/shards/jobs/" + stranger).status()).isEqualTo(400);
		assertClientError(this.client.get("/api/jobs/" + stranger), 404, "No known queue has a job");
		assertClientError(this.client.get("/api/queues/shards/jobs?state=pending&partition=4"), 400,
				"there is no partition 4");
		assertClientError(this.client.get("/api/queues/shards/jobs?state=pending&partition=-1"), 400,
				"there is no partition -1");
		assertClientError(this.client.get("/api/queues/shards/jobs?state=pending&partition=x"), 400,
				"partition must be a whole number");
		this.client.open();
		for (String action : List.of("replay", "delete", "run", "cancel")) {
			assertClientError(this.client.post("/api/queues/shards/jobs/" + stranger + "/" + action), 400,
					"names partition 7");
		}
		assertThat(PartitionedStats.read(this.inspector, partitions).total().pending()).isEqualTo(8);
		assertThat(ids).allSatisfy(
				(id) -> assertThat(this.inspector.row(partitions.nameOf(id), id)).containsEntry("state", "pending"));
	}

	@Test
	void pagesOfEveryPartitionShouldStopAtTheMergedWindow() {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < EchoMqDashboard.MAX_MERGED + 10; i++) {
			payloads.add("p" + i);
		}
		this.template.enqueueAll("bulk", payloads);
		assertClientError(this.client.get("/api/queues/bulk/jobs?state=pending&offset=490&limit=20"), 400,
				"choose a partition (partition=0-1) to page further");
		assertThat(ids(this.client.get("/api/queues/bulk/jobs?state=pending&offset=480&limit=20").json())).hasSize(20);
		JsonNode deep = this.client.get("/api/queues/bulk/jobs?state=pending&partition=1&offset=250&limit=100").json();
		assertThat(deep.get("total").asLong()).isEqualTo((EchoMqDashboard.MAX_MERGED + 10) / 2);
		assertThat(ids(deep)).hasSize(5);
		String single = DashboardTestApplication.unique("single");
		this.template.enqueue(single, "x");
		assertThat(ids(this.client.get("/api/queues/" + single + "/jobs?partition=0").json())).hasSize(1);
		assertClientError(this.client.get("/api/queues/" + single + "/jobs?partition=1"), 400,
				"has 1 partition(s) (0-0); there is no partition 1");
	}

	@Test
	void actionsShouldGoToThePartitionsTheyName() {
		QueuePartitions partitions = QueuePartitions.of("parcels", 3);
		TestHandler handler = listen("parcels");
		this.client.open();
		String api = "/api/queues/parcels";

		List<JobId> doomed = this.template.enqueueAll("parcels", List.of("bad-1", "bad-2", "bad-3"));
		await().atMost(WAIT).until(() -> total("parcels").dead() == 3);
		Response deleted = this.client.post(api + "/jobs/" + doomed.get(1) + "/delete");
		assertThat(deleted.status()).as("%s", deleted).isEqualTo(200);
		assertThat(this.inspector.row(partitions.nameOf(doomed.get(1)), doomed.get(1))).isEmpty();
		assertThat(total("parcels").dead()).isEqualTo(2);
		JsonNode deadPage = this.client.get(api + "/jobs?state=dead").json();
		assertThat(ids(deadPage)).containsExactlyInAnyOrder(doomed.get(0).toString(), doomed.get(2).toString());
		Response purged = this.client.post(api + "/dead/purge");
		assertThat(purged.json().get("count").asLong()).isEqualTo(2);
		assertThat(total("parcels").dead()).isZero();
		assertThat(partitions.names()).allSatisfy((name) -> assertThat(stats(name).dead()).isZero());

		List<JobId> dead = this.template.enqueueAll("parcels", List.of("bad-4", "bad-5", "bad-6"));
		await().atMost(WAIT).until(() -> total("parcels").dead() == 3);
		handler.heal();
		Response replayed = this.client.post(api + "/jobs/" + dead.get(2) + "/replay");
		assertThat(replayed.status()).as("%s", replayed).isEqualTo(200);
		await().atMost(WAIT).until(() -> this.inspector.row(partitions.nameOf(dead.get(2)), dead.get(2)).isEmpty());
		Response all = this.client.post(api + "/dead/replay");
		assertThat(all.message()).isEqualTo("Replayed 2 dead jobs");
		await().atMost(WAIT)
			.until(() -> total("parcels").dead() == 0 && total("parcels").pending() == 0
					&& total("parcels").active() == 0);
		assertThat(total("parcels").counters()).containsEntry("replayed", 3L).containsEntry("completed", 3L);

		JobId later = this.template.enqueue("parcels", "later", EnqueueOptions.delayed(Duration.ofHours(1)));
		JobId cancelled = this.template.enqueue("parcels", "never", EnqueueOptions.delayed(Duration.ofHours(1)));
		String laterPartition = partitions.nameOf(later);
		assertThat(this.client.get(api + "/jobs/" + later).json().get("partition").asString())
			.isEqualTo(laterPartition);
		Response cancel = this.client.post(api + "/jobs/" + cancelled + "/cancel");
		assertThat(cancel.status()).as("%s", cancel).isEqualTo(200);
		assertThat(cancel.json().get("result").asString()).isEqualTo("CANCELLED");
		assertThat(this.inspector.row(partitions.nameOf(cancelled), cancelled)).isEmpty();
		Response ran = this.client.post(api + "/jobs/" + later + "/run");
		assertThat(ran.status()).as("%s", ran).isEqualTo(200);
		await().atMost(WAIT).until(() -> this.inspector.row(laterPartition, later).isEmpty());
		assertThat(total("parcels").counters()).containsEntry("completed", 4L);
		JsonNode history = this.client.get("/api/history?minutes=5").json().get("queues").get("parcels");
		long completed = 0;
		for (JsonNode minute : history) {
			completed += minute.get("completed").asLong();
		}
		assertThat(completed).as("the partitions' series, summed").isEqualTo(4);

		Response paused = this.client.post(api + "/cluster/pause");
		assertThat(paused.status()).as("%s", paused).isEqualTo(200);
		assertThat(partitions.names()).allSatisfy((name) -> assertThat(this.jobs.admin().pauseLeft(name)).isNull());
		JsonNode queue = this.client.get(api).json();
		assertThat(queue.get("pausedCluster").asBoolean()).isTrue();
		assertThat(queue.get("flow").get("pauseLeftMillis").isNull()).as("paused until resumed").isTrue();
		assertThat(this.client.post(api + "/cluster/resume").status()).isEqualTo(200);
		assertThat(partitions.names()).allSatisfy((name) -> assertThat(this.jobs.admin().pauseLeft(name)).isZero());
		assertThat(this.client.get(api).json().get("pausedCluster").asBoolean()).isFalse();
		this.admin.pause("parcels", Duration.ofMinutes(5));
		long left = this.client.get(api).json().get("flow").get("pauseLeftMillis").asLong();
		assertThat(left).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(5).toMillis());
		this.admin.resume("parcels");
	}

	@Test
	void lanesShouldBeListedWithTheirPartitionsAndLimits() {
		QueuePartitions partitions = QueuePartitions.of("regions", 2);
		this.template.enqueueAll("regions", List.of("r1", "r2", "r3"), EnqueueOptions.defaults().withLane("acme"));
		this.template.enqueue("regions", "r4", EnqueueOptions.defaults().withLane("globex"));

		JsonNode flow = this.client.get("/api/queues/regions").json().get("flow");
		assertThat(flow.get("laneCount").asLong()).isEqualTo(2);
		Set<String> seen = new HashSet<>();
		for (JsonNode lane : flow.get("lanes")) {
			String name = lane.get("lane").asString();
			seen.add(name);
			assertThat(lane.get("pending").asLong()).isEqualTo("acme".equals(name) ? 3 : 1);
			assertThat(lane.get("partition").asString()).isEqualTo(partitions.name(partitions.partitionForKey(name)));
		}
		assertThat(seen).containsExactlyInAnyOrder("acme", "globex");
		long lanesOverPartitions = 0;
		for (JsonNode partition : flow.get("partitions")) {
			lanesOverPartitions += partition.get("lanes").asLong();
		}
		assertThat(lanesOverPartitions).isEqualTo(2);
		JsonNode limits = flow.get("limits");
		assertThat(limits.get("maxActive").isNull()).isTrue();
		assertThat(limits.get("laneMaxActive").asInt()).isEqualTo(1);
		assertThat(limits.get("laneRateLimit").asInt()).isEqualTo(5);
		assertThat(limits.get("laneRatePeriodMillis").asLong()).isEqualTo(60_000);
		assertThat(limits.get("perPartition").get("laneMaxActive").asInt()).as("a lane lives in one partition")
			.isEqualTo(1);

		String plain = DashboardTestApplication.unique("plain-lanes");
		this.template.enqueueAll(plain, List.of("x", "y"), EnqueueOptions.defaults().withLane("t-1"));
		JsonNode plainFlow = this.client.get("/api/queues/" + plain).json().get("flow");
		assertThat(plainFlow.get("partitionCount").asInt()).isEqualTo(1);
		assertThat(plainFlow.get("partitions")).isEmpty();
		assertThat(plainFlow.get("lanes").get(0).get("lane").asString()).isEqualTo("t-1");
		assertThat(plainFlow.get("lanes").get(0).get("pending").asLong()).isEqualTo(2);
		assertThat(plainFlow.get("limits").isNull()).isTrue();

		JsonNode regions = this.client.get("/api/queues/regions/jobs?state=pending").json();
		List<String> laneOf = new ArrayList<>();
		for (String id : ids(regions)) {
			laneOf.add(regions.get("lanes").get(id).asString());
		}
		assertThat(laneOf).as("the pending list of every partition holds the lanes' jobs")
			.containsExactlyInAnyOrder("acme", "acme", "acme", "globex");
		JobId loose = this.template.enqueue(plain, "z");
		this.template.enqueue(plain, "w", EnqueueOptions.defaults().withLane("t-2"));
		List<String> listed = new ArrayList<>();
		List<String> lanes = new ArrayList<>();
		for (int offset = 0; offset < 4; offset += 3) {
			JsonNode page = this.client.get("/api/queues/" + plain + "/jobs?state=pending&limit=3&offset=" + offset)
				.json();
			assertThat(page.get("total").asLong()).as("the count the list agrees with").isEqualTo(4);
			for (String id : ids(page)) {
				listed.add(id);
				JsonNode lane = page.get("lanes").get(id);
				lanes.add((lane != null) ? lane.asString() : "");
			}
		}
		assertThat(listed).as("every pending job once, across the pages").hasSize(4).doesNotHaveDuplicates();
		assertThat(listed.get(0)).as("the pending location first, then the lanes").isEqualTo(loose.toString());
		assertThat(lanes).containsExactly("", "t-1", "t-1", "t-2");
	}

	private QueueStats total(String queue) {
		return PartitionedStats.read(this.inspector, this.template.getPartitioning().forQueue(queue)).total();
	}

}
