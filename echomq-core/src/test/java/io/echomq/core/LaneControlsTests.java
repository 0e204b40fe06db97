package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqAdmin;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.LaneKeyType;
import io.echomq.core.internal.Script;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueBacklogs;
import io.echomq.inspect.QueueInspector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Per-lane controls (pause, resume, pending cap, own limits) against a real server.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER", "EMBEDDED_REDIS" })
class LaneControlsTests extends EngineTestSupport {

	@Test
	void aPausedLaneShouldWaitWhileItsSiblingDrainsAndBeClaimedAfterResume() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		List<JobId> paused = enqueue("a", 3);
		enqueue("b", 3);
		assertThat(admin.pauseLane(this.queue, "a")).isTrue();
		assertThat(admin.pauseLane(this.queue, "a")).isFalse();
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("b");
		// a job of the paused lane coming due puts the lane back in the ring; the next
		// claim takes it out
		paused.add(this.jobs.enqueues()
			.enqueue(this.queue, "due", EnqueueSpec.defaults().withLane("a").withDelay(Duration.ofMillis(5))));
		await().atMost(Duration.ofSeconds(5)).until(() -> admin.promoteDue(this.queue) == 1);
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("b", "a");
		List<String> lanes = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			this.jobs.claims().claim(this.queue, LEASE, 2).forEach((job) -> lanes.add(job.fields().get("lane")));
		}
		assertThat(lanes).containsExactly("b", "b", "b");
		assertThat(this.redis.hasKey(key(KeyType.LANES))).isFalse();
		// an enqueue into the paused lane leaves it out of the ring and wakes nobody
		this.redis.delete(key(KeyType.WAKE));
		paused.addAll(enqueue("a", 1));
		assertThat(this.redis.hasKey(key(KeyType.LANES))).isFalse();
		assertThat(this.redis.hasKey(key(KeyType.WAKE))).isFalse();
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).isEmpty();
		for (JobId id : paused) {
			assertThat(this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, id), "state")).isEqualTo("pending");
		}
		assertThat(admin.laneControls(this.queue, "a")).isEqualTo(new LaneControls("a", true, null, 5, null, null));
		assertThat(new QueueInspector(this.jobs).stats(this.queue).lanes()).containsExactly(Map.entry("a", 5L));
		QueueBacklogs backlogs = new QueueBacklogs(this.jobs, new QueueInspector(this.jobs));
		assertThat(backlogs.read(this.queue).runnable()).as("a paused lane's jobs cannot start").isZero();
		assertThat(audit()).isEmpty();

		assertThat(admin.resumeLane(this.queue, "a")).isTrue();
		assertThat(admin.resumeLane(this.queue, "a")).isFalse();
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isPositive();
		assertThat(backlogs.read(this.queue).runnable()).isEqualTo(5);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).extracting(ClaimedJob::id)
			.containsExactlyInAnyOrderElementsOf(paused);
		assertThat(admin.laneControls(this.queue, "a")).isEqualTo(new LaneControls("a", false, null, 0, null, null));
		assertThat(audit()).isEmpty();
	}

	@Test
	void aCapShouldAcceptExactlyCapJobsAndRefuseTheRestWithNothingWritten() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		assertThat(admin.setLanePendingCap(this.queue, "a", 3)).isTrue();
		enqueue("a", 2);
		List<JobId> refused = List.of(JobId.mint(), JobId.mint());
		assertThatExceptionOfType(LaneFullException.class)
			.isThrownBy(() -> this.jobs.enqueues()
				.enqueueAll(this.queue, refused, List.of("x", "y"), EnqueueSpec.defaults().withLane("a")))
			.satisfies((ex) -> {
				assertThat(ex.getQueue()).isEqualTo(this.queue);
				assertThat(ex.getLane()).isEqualTo("a");
				assertThat(ex.getSize()).isEqualTo(2);
				assertThat(ex.getCap()).isEqualTo(3);
			})
			.withMessageContaining("Lane 'a' of queue '" + this.queue + "' holds 2 pending jobs of its cap of 3");
		for (JobId id : refused) {
			assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		}
		enqueue("a", 1);
		assertThatExceptionOfType(LaneFullException.class).isThrownBy(() -> enqueue("a", 1));
		assertThatExceptionOfType(LaneFullException.class).isThrownBy(() -> this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withLane("a").withDelay(Duration.ofMinutes(1))));
		assertThat(this.redis.opsForZSet().size(key(KeyType.SCHEDULE))).isZero();
		enqueue("b", 4);
		assertThat(admin.laneControls(this.queue, "a")).isEqualTo(new LaneControls("a", false, 3L, 3, null, null));
		this.jobs.claims().claim(this.queue, LEASE, 1);
		assertThat(admin.laneControls(this.queue, "a").pending() + admin.laneControls(this.queue, "b").pending())
			.isEqualTo(6);
		assertThat(admin.clearLanePendingCap(this.queue, "a")).isTrue();
		enqueue("a", 5);
		assertThat(audit()).isEmpty();
	}

	@Test
	void twoProducersRacingShouldGetExactlyCapJobsAccepted() throws Exception {
		int cap = 20;
		new EchoMqAdmin(this.jobs).setLanePendingCap(this.queue, "a", cap);
		List<Engine> engines = List.of(this.engine.newEngine(), this.engine.newEngine());
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService producers = Executors.newFixedThreadPool(2);
		try {
			List<Future<Integer>> accepted = new ArrayList<>();
			for (Engine producer : engines) {
				accepted.add(producers.submit(() -> {
					start.await();
					int taken = 0;
					for (int i = 0; i < 15; i++) {
						try {
							producer.enqueues().enqueue(this.queue, "p", EnqueueSpec.defaults().withLane("a"));
							taken++;
						}
						catch (LaneFullException ex) {
							// the other producer filled it
						}
					}
					return taken;
				}));
			}
			start.countDown();
			int total = 0;
			for (Future<Integer> producer : accepted) {
				total += producer.get(30, TimeUnit.SECONDS);
			}
			assertThat(total).isEqualTo(cap);
		}
		finally {
			producers.shutdownNow();
		}
		assertThat(this.redis.opsForZSet().size(lanePending("a"))).isEqualTo(cap);
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "enqueued")).isEqualTo(Integer.toString(cap));
	}

	@Test
	void aPartitionedQueueShouldControlTheLaneInEveryPartition() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		admin.setPartitioning(QueuePartitioning.of(Map.of(this.queue, 2)));
		QueuePartitions partitions = QueuePartitions.of(this.queue, 2);
		assertThat(admin.pauseLane(this.queue, "a")).isTrue();
		assertThat(admin.setLanePendingCap(this.queue, "a", 2)).isTrue();
		assertThat(admin.setLaneLimits(this.queue, "a", 4, null)).isTrue();
		for (String partition : partitions.names()) {
			assertThat(
					this.redis.opsForHash().entries(this.keyspace.queueKey(partition, KeyType.LANE_CONTROLS.suffix())))
				.containsEntry("paused:a", "1")
				.containsEntry("cap:a", "2")
				.containsEntry("max_active:a", "4");
		}
		String home = partitions.name(partitions.partitionForKey("a"));
		this.jobs.enqueues().enqueueAll(home, List.of("x", "y"), EnqueueSpec.defaults().withLane("a"));
		assertThatExceptionOfType(LaneFullException.class)
			.isThrownBy(() -> this.jobs.enqueues().enqueue(home, "z", EnqueueSpec.defaults().withLane("a")))
			.satisfies((ex) -> assertThat(ex.getQueue()).isEqualTo(this.queue));
		assertThat(admin.laneControls(this.queue, "a")).isEqualTo(new LaneControls("a", true, 2L, 2, 4, null));
	}

	@Test
	void aLaneOwnLimitsShouldWinOverTheQueueLaneDefaultsUntilCleared() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		FlowLimits defaults = new FlowLimits(null, null, 1, null);
		enqueue("a", 3);
		enqueue("b", 3);
		enqueue("c", 3);
		FlowLimits.RateLimit rate = new FlowLimits.RateLimit(2, Duration.ofMinutes(1));
		assertThat(admin.setLaneLimits(this.queue, "b", 3, null)).isTrue();
		assertThat(admin.setLaneLimits(this.queue, "b", 3, null)).isFalse();
		assertThat(admin.setLaneLimits(this.queue, "c", 3, rate)).isTrue();
		assertThat(admin.laneControls(this.queue, "c")).isEqualTo(new LaneControls("c", false, null, 3, 3, rate));
		// a: the default max-active 1; b: its own 3; c: its own rate of 2 a minute
		assertThat(lanesOf(this.jobs.claims().claim(this.queue, LEASE, 20, defaults))).containsExactlyInAnyOrder("a",
				"b", "b", "b", "c", "c");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 20, defaults).jobs()).isEmpty();
		assertThat(admin.clearLaneLimits(this.queue, "c")).isTrue();
		assertThat(admin.clearLaneLimits(this.queue, "c")).isFalse();
		assertThat(admin.laneControls(this.queue, "c")).isEqualTo(new LaneControls("c", false, null, 1, null, null));
		// c falls back to the default max-active 1, which its two held jobs already use
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 20, defaults).jobs()).isEmpty();
		// without a queue default a lane's own max-active 1 still holds it to one active
		// job
		assertThat(admin.setLaneLimits(this.queue, "a", 1, null)).isTrue();
		assertThat(lanesOf(this.jobs.claims().claim(this.queue, LEASE, 20, FlowLimits.none()))).containsExactly("c");
		assertThat(admin.laneControls(this.queue, "a")).isEqualTo(new LaneControls("a", false, null, 2, 1, null));
		assertThat(audit()).isEmpty();
	}

	@Test
	void badInputShouldBeRefusedWithNothingWritten() {
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		assertThatExceptionOfType(InvalidQueueNameException.class).isThrownBy(() -> admin.pauseLane(this.queue, "a:b"))
			.withMessageContaining("'a:b'");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> admin.setLanePendingCap(this.queue, "a", 0))
			.withMessageContaining("must be at least 1, was 0");
		Script control = Script.load("lane_control");
		List<String> keys = List.of(key(KeyType.LANE_CONTROLS), lanePending("a"), key(KeyType.LANES),
				key(KeyType.WAKE));
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("a", "cap", "0")))
			.withMessageContaining("EMQARG ARGV[3] must be an integer >= 1, was 0");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("b", "pause", "0")))
			.withMessageContaining("is not the pending key of lane b");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> admin.setLaneLimits(this.queue, "a", null, null))
			.withMessageContaining("No limit to set for lane 'a'");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> admin.setLaneLimits(this.queue, "a", 0, null))
			.withMessageContaining("must be at least 1, was 0");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("a", "limit", "0", "0", "2", "0")))
			.withMessageContaining("EMQARG a lane rate (ARGV[5], was 2) needs its period");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("a", "limit", "0", "0", "0", "0")))
			.withMessageContaining("EMQARG a lane limit needs a max-active or a rate >= 1");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("a", "limit", "0", "-1", "0", "0")))
			.withMessageContaining("EMQARG ARGV[4] must be an integer >= 0, was -1");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> this.jobs.executor().execute(control, keys, List.of("a", "stop", "0")))
			.withMessageContaining("must be 'pause', 'resume', 'cap', 'uncap', 'limit', 'unlimit' or 'read'");
		assertThat(this.redis.keys(this.keyspace.queueKey(this.queue, "") + "*")).isEmpty();
	}

	private List<JobId> enqueue(String lane, int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add(lane + "-" + i);
		}
		return new ArrayList<>(
				this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults().withLane(lane)));
	}

	private List<String> lanesOf(ClaimResult result) {
		return result.jobs().stream().map((job) -> job.fields().get("lane")).toList();
	}

	private List<String> audit() {
		return new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(30)).violations();
	}

	private String lanePending(String lane) {
		return this.keyspace.laneKey(this.queue, lane, LaneKeyType.PENDING.suffix());
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

}
