package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.LaneKeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Fair lanes against a real server.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class LanesTests extends EngineTestSupport {

	@Test
	void enqueueWithALaneShouldWriteTheLanesPendingAndTheRing() {
		JobId id = enqueue("tenant-a", 1).get(0);
		assertThat(this.redis.opsForZSet().score(lanePending("tenant-a"), id.toString())).isEqualTo(0.0);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("tenant-a");
		assertThat(row(id)).containsEntry("state", "pending").containsEntry("lane", "tenant-a");
		assertClean();
	}

	@Test
	void claimsShouldGoRoundRobinAcrossLanes() {
		enqueue("a", 10);
		enqueue("b", 3);
		enqueue("c", 2);
		List<String> order = new ArrayList<>();
		for (int i = 0; i < 15; i++) {
			List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 1);
			assertThat(claimed).hasSize(1);
			order.add(claimed.get(0).fields().get("lane"));
		}
		assertThat(order).containsExactly("a", "b", "c", "a", "b", "c", "a", "b", "a", "a", "a", "a", "a", "a", "a");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).isEmpty();
		assertThat(this.redis.hasKey(key(KeyType.LANES))).isFalse();
		assertClean();
	}

	@Test
	void oneClaimShouldTakeOneJobPerLanePerRound() {
		enqueue("a", 10);
		enqueue("b", 2);
		enqueue("c", 1);
		List<String> lanes = this.jobs.claims()
			.claim(this.queue, LEASE, 7)
			.stream()
			.map((job) -> job.fields().get("lane"))
			.toList();
		assertThat(lanes).containsExactlyInAnyOrder("a", "b", "c", "a", "b", "a", "a");
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("a");
	}

	@Test
	void aNoisyLaneShouldNotStarveAQuietOne() {
		enqueue("noisy", 2000);
		List<JobId> quiet = enqueue("quiet", 10);
		List<JobId> claimed = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			this.jobs.claims().claim(this.queue, LEASE, 10).forEach((job) -> claimed.add(job.id()));
		}
		assertThat(claimed).hasSize(20).containsAll(quiet);
	}

	@Test
	void jobsWithoutALaneShareTheQueueWithTheLanes() {
		List<JobId> plain = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("p1", "p2", "p3", "p4"), EnqueueSpec.defaults());
		List<JobId> laned = enqueue("a", 4);
		List<JobId> claimed = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			this.jobs.claims().claim(this.queue, LEASE, 2).forEach((job) -> claimed.add(job.id()));
		}
		assertThat(claimed).hasSize(8).containsAll(plain).containsAll(laned);
		assertClean();
	}

	@Test
	void cancelAndDeleteOfAWaitingLaneJobShouldTakeItOutOfItsLaneAndTheLaneOutOfTheRingWhenEmpty() {
		List<JobId> ids = enqueue("a", 2);
		assertThat(this.jobs.admin().cancel(this.queue, ids.get(0)).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.redis.opsForZSet().score(lanePending("a"), ids.get(0).toString())).isNull();
		assertThat(this.redis.opsForZSet().score(key(KeyType.LANES), "a")).isNotNull();
		assertThat(this.jobs.admin().delete(this.queue, ids.get(1)).isApplied()).isTrue();
		assertThat(this.redis.hasKey(lanePending("a"))).isFalse();
		assertThat(this.redis.opsForZSet().score(key(KeyType.LANES), "a")).isNull();
		assertThat(row(ids.get(0))).isEmpty();
		assertThat(row(ids.get(1))).isEmpty();
		assertClean();
	}

	@Test
	void aClusterWidePauseShouldHoldLaneJobsToo() {
		enqueue("a", 2);
		this.jobs.enqueues().enqueueAll(this.queue, List.of("plain"), EnqueueSpec.defaults());
		assertThat(this.jobs.admin().pause(this.queue, null, "test")).isTrue();
		for (int i = 0; i < 4; i++) {
			assertThat(this.jobs.claims().claim(this.queue, LEASE, 5, FlowLimits.none()).jobs()).isEmpty();
		}
		assertThat(this.jobs.admin().resume(this.queue)).isTrue();
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5, FlowLimits.none()).jobs().size()
				+ this.jobs.claims().claim(this.queue, LEASE, 5, FlowLimits.none()).jobs().size())
			.isEqualTo(3);
		assertClean();
	}

	@Test
	void aQueueWithoutLanesShouldWriteNoLaneKey() {
		this.jobs.enqueues().enqueueAll(this.queue, List.of("x", "y"), EnqueueSpec.defaults());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).hasSize(2);
		assertThat(this.redis.hasKey(key(KeyType.LANES))).isFalse();
		assertThat(this.redis.keys(this.keyspace.laneKeyPrefix(this.queue) + "*")).isEmpty();
	}

	@Test
	void laneMaxActiveOfOneShouldMakeEachLaneAMutex() {
		enqueue("a", 3);
		enqueue("b", 3);
		FlowLimits limits = new FlowLimits(null, null, 1, null);
		ClaimResult first = this.jobs.claims().claim(this.queue, LEASE, 10, limits);
		assertThat(first.jobs()).extracting((job) -> job.fields().get("lane")).containsExactlyInAnyOrder("a", "b");
		ClaimResult second = this.engine.newEngine().claims().claim(this.queue, LEASE, 10, limits);
		assertThat(second.jobs()).isEmpty();
		assertThat(second.limit()).isEqualTo(ClaimResult.Limit.LANE_MAX_ACTIVE);
		ClaimedJob a = first.jobs().stream().filter((job) -> "a".equals(job.fields().get("lane"))).findFirst().get();
		this.redis.delete(key(KeyType.WAKE));
		assertThat(this.jobs.outcomes().complete(this.queue, a.id(), a.token()).isApplied()).isTrue();
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).as("the completion wakes the capped").isOne();
		ClaimResult third = this.jobs.claims().claim(this.queue, LEASE, 10, limits);
		assertThat(third.jobs()).extracting((job) -> job.fields().get("lane")).containsExactly("a");
		assertClean();
	}

	@Test
	void laneRateLimitShouldHoldEachLane() {
		enqueue("a", 5);
		enqueue("b", 5);
		FlowLimits limits = new FlowLimits(null, null, null, new FlowLimits.RateLimit(2, Duration.ofMinutes(1)));
		ClaimResult first = this.jobs.claims().claim(this.queue, LEASE, 10, limits);
		assertThat(first.jobs()).extracting((job) -> job.fields().get("lane"))
			.containsExactlyInAnyOrder("a", "a", "b", "b");
		ClaimResult second = this.jobs.claims().claim(this.queue, LEASE, 10, limits);
		assertThat(second.jobs()).isEmpty();
		assertThat(second.limit()).isEqualTo(ClaimResult.Limit.LANE_RATE);
		assertThat(second.retryAfter()).isNotNull().isGreaterThan(Duration.ofSeconds(50));
	}

	@Test
	void promoteShouldReturnADelayedLaneJobToItsLane() {
		JobId id = this.jobs.enqueues()
			.enqueue(this.queue, "x", EnqueueSpec.defaults().withLane("late").withDelay(Duration.ofMillis(20)));
		assertThat(row(id)).containsEntry("state", "schedule").containsEntry("lane", "late");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().promote(this.queue, 10) == 1);
		assertThat(this.redis.opsForZSet().score(lanePending("late"), id.toString())).isNotNull();
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("late");
		assertThat(row(id)).containsEntry("state", "pending");
		assertClean();
	}

	@Test
	void reapShouldReturnAnExpiredLaneJobToItsLane() {
		JobId id = enqueue("a", 1).get(0);
		assertThat(this.jobs.claims().claim(this.queue, Duration.ofMillis(1), 1)).hasSize(1);
		assertThat(this.redis.hasKey(key(KeyType.LANES))).isFalse();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		assertThat(this.redis.opsForZSet().score(lanePending("a"), id.toString())).isNotNull();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(this.redis.opsForZSet().range(key(KeyType.LANES), 0, -1)).containsExactly("a");
		assertClean();
	}

	@Test
	void retryReleaseAndReplayShouldReturnALaneJobToItsLaneThroughSchedule() {
		List<JobId> ids = enqueue("a", 3);
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 3);
		assertThat(this.jobs.outcomes()
			.retry(this.queue, claimed.get(0).id(), claimed.get(0).token(), "boom", Duration.ZERO)
			.state()).isEqualTo(JobState.SCHEDULE);
		assertThat(this.jobs.outcomes().release(this.queue, claimed.get(1).id(), claimed.get(1).token()).state())
			.isEqualTo(JobState.SCHEDULE);
		assertThat(this.jobs.outcomes()
			.deadLetter(this.queue, claimed.get(2).id(), claimed.get(2).token(), "fatal")
			.isApplied()).isTrue();
		assertThat(this.jobs.admin().replay(this.queue, claimed.get(2).id(), 3).isApplied()).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> {
			this.jobs.upkeep().promote(this.queue, 10);
			return this.redis.opsForZSet().size(lanePending("a")) == 3;
		});
		assertThat(this.redis.opsForZSet().range(lanePending("a"), 0, -1))
			.containsExactlyInAnyOrderElementsOf(ids.stream().map(JobId::toString).toList());
		assertClean();
	}

	@Test
	void auditShouldReportALaneJobOutOfItsLane() {
		JobId id = enqueue("a", 1).get(0);
		this.redis.opsForZSet().remove(lanePending("a"), id.toString());
		this.redis.opsForZSet().add(key(KeyType.PENDING), id.toString(), 0);
		assertThat(audit().violations()).contains(id + " is in pending but its row says lane=a (not in its lane)",
				"lane a is in the ring " + key(KeyType.LANES) + " with nothing pending");
	}

	@Test
	void auditShouldReportALaneWithWorkOutsideTheRing() {
		enqueue("a", 2);
		this.redis.delete(key(KeyType.LANES));
		assertThat(audit().violations()).singleElement()
			.asString()
			.startsWith("lane a has 2 pending but is not in the ring");
	}

	@Test
	void statsAndGaugesShouldShowTheLanes() {
		enqueue("a", 3);
		enqueue("b", 1);
		this.jobs.enqueues().enqueue(this.queue, "plain", EnqueueSpec.defaults());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::payload)
			.containsExactly("plain");
		QueueStats stats = new QueueInspector(this.jobs).stats(this.queue);
		assertThat(stats.pending()).isEqualTo(4);
		assertThat(stats.lanes()).containsExactly(Map.entry("a", 3L), Map.entry("b", 1L));
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		EchoMqQueueMetrics metrics = new EchoMqQueueMetrics(new QueueInspector(this.jobs),
				new EchoMqQueueCatalog(Set::of, Set.of(this.queue)), null, Duration.ofMinutes(1));
		metrics.bindTo(registry);
		metrics.sample();
		assertThat(registry.get("echomq.queue.lanes").tag("queue", this.queue).gauge().value()).isEqualTo(2.0);
		assertThat(registry.get("echomq.queue.jobs").tag("queue", this.queue).tag("state", "pending").gauge().value())
			.isEqualTo(4.0);
	}

	@Test
	void invalidLaneKeysShouldBeRefusedBeforeAnyWrite() {
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> EnqueueOptions.defaults().withLane("tenant:a"))
			.withMessageContaining("'tenant:a'")
			.withMessageContaining("no braces, colons");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> EnqueueSpec.defaults().withLane("{a}"))
			.withMessageContaining("'{a}'");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> EnqueueSpec.defaults().withLane("x".repeat(65)))
			.withMessageContaining("must be 1-64 characters, was 65");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> EnqueueOptions.defaults().withLane(""))
			.withMessageContaining("was 0");
	}

	private List<JobId> enqueue(String lane, int count) {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			payloads.add(lane + "-" + i);
		}
		return this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults().withLane(lane));
	}

	private void assertClean() {
		AuditReport report = audit();
		assertThat(report.violations()).isEmpty();
	}

	private AuditReport audit() {
		return new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(30));
	}

	private Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
	}

	private String lanePending(String lane) {
		return this.keyspace.laneKey(this.queue, lane, LaneKeyType.PENDING.suffix());
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

}
