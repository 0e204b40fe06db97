package io.echomq.core;

import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.CompleteAndClaimResult;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.MaintenancePass;
import io.echomq.core.internal.RowPayload;
import io.echomq.core.internal.Script;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.JobView;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The engine's transitions (enqueue, claim, complete, retry, dead-letter, extend, reap
 * and their fencing) run against each server of {@link EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource(EngineServer.class)
class TransitionsTests extends EngineTestSupport {

	/** Counts its runs per key, or fails before any write when told to. */
	private static final Script COUNTING = Script.of("counting",
			"if ARGV[1] == 'fail' then return redis.error_reply('EMQTEST refused') end\n"
					+ "return {redis.call('INCR', KEYS[1])}\n");

	private String minuteField(String kind) {
		return this.redis.<String, String>opsForHash()
			.keys(key(KeyType.MINUTES))
			.stream()
			.filter((field) -> field.endsWith(":" + kind))
			.findFirst()
			.orElse("none:" + kind);
	}

	private @Nullable String encoding(String key) {
		return this.redis.execute((RedisCallback<String>) (connection) -> {
			Object reply = connection.execute("OBJECT", "ENCODING".getBytes(), key.getBytes());
			return (reply instanceof byte[] bytes) ? new String(bytes) : String.valueOf(reply);
		});
	}

	@Test
	void enqueueShouldWritePendingScoreZeroAndRow() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "{\"a\":1}", EnqueueSpec.defaults());
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), id.toString())).isEqualTo(0.0);
		Map<Object, Object> row = this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
		assertThat(row).containsEntry("state", "pending")
			.containsEntry("attempts", "0")
			.containsEntry("max_attempts", "3")
			.containsEntry("payload", "{\"a\":1}")
			.containsKey("enqueued_at");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "enqueued")).isEqualTo("1");
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isPositive();
	}

	@Test
	void enqueueShouldPushAWakeUpIntoAWakeListThatIsNotFull() {
		for (int i = 0; i < 15; i++) {
			this.redis.opsForList().leftPush(key(KeyType.WAKE), "1");
		}
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isEqualTo(16);
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).isEqualTo(16);
	}

	@Test
	void enqueueShouldLeaveAFullWakeListAsItIsSoItsScheduleTokenStays() {
		// nobody pops a full list: a wake-up would only push the oldest token, here a
		// schedule token, out of it
		this.redis.opsForList().leftPush(key(KeyType.WAKE), "d");
		for (int i = 0; i < 15; i++) {
			this.redis.opsForList().leftPush(key(KeyType.WAKE), "1");
		}
		List<String> full = this.redis.opsForList().range(key(KeyType.WAKE), 0, -1);
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b"), EnqueueSpec.defaults());
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2);
		assertThat(row(ids.get(1))).containsEntry("state", "pending");
		assertThat(this.redis.opsForList().range(key(KeyType.WAKE), 0, -1)).isEqualTo(full).endsWith("d");
	}

	@Test
	void enqueueAllOfARowThatExistsShouldWriteNothingAndNameIt() {
		JobId existing = this.jobs.enqueues().enqueue(this.queue, "first", EnqueueSpec.defaults());
		List<JobId> ids = List.of(JobId.mint(), JobId.mint(), existing, JobId.mint());
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> this.jobs.enqueues()
				.enqueueAll(this.queue, ids, List.of("a", "b", "c", "d"), EnqueueSpec.defaults()))
			.withStackTraceContaining("EMQDUP job row already exists: " + this.keyspace.jobKey(this.queue, existing));
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(existing.toString());
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, ids.get(0)))).isFalse();
		assertThat(row(existing)).containsEntry("payload", "first");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "enqueued")).isEqualTo("1");
	}

	@Test
	void enqueueAllShouldPutEveryIdInItsLocationAtItsScore() {
		List<JobId> urgent = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("a", "b", "c"), EnqueueSpec.defaults().withPriority(5));
		List<JobId> later = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("d", "e"), EnqueueSpec.defaults().withDelay(Duration.ofMinutes(5)));
		assertThat(urgent).allSatisfy((id) -> {
			assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), id.toString())).isEqualTo(-5.0);
			assertThat(row(id)).containsEntry("state", "pending").containsEntry("priority", "5");
		});
		Double runAt = this.redis.opsForZSet().score(key(KeyType.SCHEDULE), later.get(0).toString());
		assertThat(runAt).isNotNull();
		assertThat(later).allSatisfy((id) -> {
			assertThat(this.redis.opsForZSet().score(key(KeyType.SCHEDULE), id.toString())).isEqualTo(runAt);
			assertThat(row(id)).containsEntry("state", "schedule")
				.containsEntry("run_at", Long.toString(runAt.longValue()));
		});
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "enqueued")).isEqualTo("5");
	}

	@Test
	void payloadOverSixtyFourBytesShouldBeCutSoTheRowStaysCompactAndClaimJoinIt() {
		String payload = "{\"order\":\"" + "x".repeat(120) + "\"}";
		JobId id = this.jobs.enqueues().enqueue(this.queue, payload, EnqueueSpec.defaults());
		Map<Object, Object> row = row(id);
		assertThat(row).containsKeys("payload", "+2", "+3").doesNotContainKey("+4");
		assertThat(row.values()).allSatisfy((value) -> assertThat(value.toString()).hasSizeLessThanOrEqualTo(64));
		assertThat(encoding(this.keyspace.jobKey(this.queue, id))).isIn("listpack", "ziplist");
		assertThat(new QueueInspector(this.jobs).row(this.queue, id)).containsEntry("payload", payload)
			.doesNotContainKeys("+2", "+3");
		assertThat(new QueueInspector(this.jobs).job(this.queue, id).payload()).isEqualTo(payload);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).singleElement()
			.satisfies((job) -> assertThat(job.payload()).isEqualTo(payload))
			.satisfies((job) -> assertThat(job.fields()).isEmpty());
	}

	@Test
	void payloadPartsShouldNeverCutAUtf8Sequence() {
		String payload = "é€😀".repeat(40) + "a";
		JobId id = this.jobs.enqueues().enqueue(this.queue, payload, EnqueueSpec.defaults());
		assertThat(row(id)).containsKey("+2");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).singleElement()
			.satisfies((job) -> assertThat(job.payload()).isEqualTo(payload));
	}

	@Test
	void payloadOverTheSplitLimitShouldBeKeptWhole() {
		String payload = "y".repeat(RowPayload.SPLIT_MAX + 1);
		JobId id = this.jobs.enqueues().enqueue(this.queue, payload, EnqueueSpec.defaults());
		assertThat(row(id)).containsEntry("payload", payload).doesNotContainKey("+2");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).singleElement()
			.satisfies((job) -> assertThat(job.payload()).isEqualTo(payload));
	}

	@Test
	void extraFieldNamedLikeAPayloadPartShouldBeRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueSpec.defaults().withFields(Map.of("+2", "x")))
			.withMessageContaining("'+2' is reserved");
	}

	@Test
	void scriptsShouldRunAfterTheSharedConnectionIsReset() {
		JobId first = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		// the executor keeps the shared native connection; a reset closes it and opens
		// another
		this.connectionFactory.resetConnection();
		JobId second = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, Duration.ofSeconds(30), 2);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(first, second);
		this.connectionFactory.resetConnection();
		assertThat(this.jobs.outcomes()
			.completeAll(this.queue, List.of(first, second), List.of(claimed.get(0).token(), claimed.get(1).token())))
			.allSatisfy((result) -> assertThat(result.isApplied()).isTrue());
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isZero();
	}

	@Test
	void completeAllShouldFenceEachJobOnItsOwn() {
		JobId first = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		JobId second = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, Duration.ofSeconds(30), 2);
		assertThat(claimed).hasSize(2);
		List<TransitionResult> results = this.jobs.outcomes()
			.completeAll(this.queue, List.of(first, second),
					List.of(claimed.get(0).token(), FencingToken.of(claimed.get(1).token().value() + 1)));
		assertThat(results.get(0).isApplied()).isTrue();
		assertThat(results.get(1).isStale()).isTrue();
		assertThat(row(first)).isEmpty();
		assertThat(row(second)).containsEntry("state", "active");
	}

	@Test
	void completeAllShouldCompleteABatchInOneCallAndCountItOnce() {
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("a", "b", "c", "d"), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 4);
		assertThat(claimed).hasSize(4);
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, ids.get(2)), "attempts", "x");
		JobId retired = JobId.mint();
		long calls = this.jobs.executor().getCalls();
		List<JobId> batch = List.of(ids.get(0), ids.get(1), ids.get(2), ids.get(3), retired);
		List<TransitionResult> results = this.jobs.outcomes()
			.completeAll(this.queue, batch,
					List.of(claimed.get(0).token(), FencingToken.of(claimed.get(1).token().value() + 1),
							claimed.get(2).token(), claimed.get(3).token(), FencingToken.of(1)));
		assertThat(this.jobs.executor().getCalls() - calls).isEqualTo(1);
		assertThat(results.get(0).isApplied()).isTrue();
		assertThat(results.get(1).reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(results.get(2).reason()).isEqualTo(StaleReason.MALFORMED_ROW);
		assertThat(results.get(3).isApplied()).isTrue();
		assertThat(results.get(4).isStale()).isTrue();
		assertThat(row(ids.get(0))).isEmpty();
		assertThat(row(ids.get(3))).isEmpty();
		assertThat(row(ids.get(1))).containsEntry("state", "active");
		assertThat(row(ids.get(2))).containsEntry("state", "active");
		assertThat(this.redis.opsForZSet().range(key(KeyType.ACTIVE), 0, -1))
			.containsExactlyInAnyOrder(ids.get(1).toString(), ids.get(2).toString());
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("2");
		assertThat(this.redis.<String, String>opsForHash().entries(key(KeyType.MINUTES)))
			.hasEntrySatisfying(minuteField("completed"), (value) -> assertThat(value).isEqualTo("2"));
	}

	@Test
	void completeAllShouldRefuseAnIdGivenTwiceAndWriteNothing() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		List<TransitionResult> results = this.jobs.outcomes()
			.completeAll(this.queue, List.of(id, id), List.of(job.token(), job.token()));
		assertThat(results).containsOnlyNulls();
		assertThat(row(id)).containsEntry("state", "active");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isNull();
	}

	@Test
	void completeAllAndClaimShouldClaimTheNextJobsForTheFreedSlotsInOneRoundTrip() {
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("a", "b", "c", "d", "e"), EnqueueSpec.defaults());
		List<ClaimedJob> first = this.jobs.claims().claim(this.queue, LEASE, 2);
		assertThat(first).extracting(ClaimedJob::id).containsExactly(ids.get(0), ids.get(1));
		// a pipelined call that meets NOSCRIPT is sent again alone: load complete_all, so
		// that the count is exact
		this.jobs.outcomes().completeAll(this.queue, List.of(JobId.mint()), List.of(FencingToken.of(1)));
		long calls = this.jobs.executor().getCalls();
		CompleteAndClaimResult result = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(ids.get(0), ids.get(1)),
					List.of(first.get(0).token(), FencingToken.of(first.get(1).token().value() + 1)), nulls(2), LEASE,
					2, FlowLimits.none(), null);
		assertThat(this.jobs.executor().getCalls() - calls).isEqualTo(2);
		assertThat(result.completions().get(0).isApplied()).isTrue();
		assertThat(result.completions().get(1).reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(result.claim().jobs()).extracting(ClaimedJob::id).containsExactly(ids.get(2), ids.get(3));
		assertThat(result.claim().jobs()).allSatisfy((job) -> assertThat(job.attempt()).isEqualTo(1));
		assertThat(row(ids.get(0))).isEmpty();
		assertThat(row(ids.get(2))).containsEntry("state", "active").containsEntry("attempts", "1");
		assertThat(this.redis.opsForZSet().range(key(KeyType.ACTIVE), 0, -1))
			.containsExactlyInAnyOrder(ids.get(1).toString(), ids.get(2).toString(), ids.get(3).toString());
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(ids.get(4).toString());
		// the claim that took its maximum left the next candidates for the one after it
		CompleteAndClaimResult next = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(ids.get(2)), List.of(result.claim().jobs().get(0).token()),
					nulls(1), LEASE, 1, FlowLimits.none(), null);
		assertThat(next.completions().get(0).isApplied()).isTrue();
		assertThat(next.claim().jobs()).extracting(ClaimedJob::id).containsExactly(ids.get(4));
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
	}

	@Test
	void completeAllAndClaimShouldOnlyCompleteWhenNoClaimLeftCandidates() {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b"), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 1);
		// a job enqueued after the claim is no candidate yet: the poller's next claim
		// finds it
		this.jobs.claims().claim(this.queue, LEASE, 1);
		JobId later = this.jobs.enqueues().enqueue(this.queue, "c", EnqueueSpec.defaults());
		long calls = this.jobs.executor().getCalls();
		CompleteAndClaimResult result = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(ids.get(0)), List.of(claimed.get(0).token()), nulls(1), LEASE, 1,
					FlowLimits.none(), null);
		assertThat(this.jobs.executor().getCalls() - calls).isEqualTo(1);
		assertThat(result.completions().get(0).isApplied()).isTrue();
		assertThat(result.claim().jobs()).isEmpty();
		assertThat(row(later)).containsEntry("state", "pending");
	}

	@Test
	void completeAllAndClaimShouldClaimNothingFromAQueuePausedClusterWide() {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b", "c"), EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.admin().pause(this.queue, null, "maintenance");
		CompleteAndClaimResult result = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(ids.get(0)), List.of(job.token()), nulls(1), LEASE, 1,
					FlowLimits.none(), null);
		assertThat(result.completions().get(0).isApplied()).isTrue();
		assertThat(result.claim().jobs()).isEmpty();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(2);
		assertThat(this.jobs.claims().lastClaimPause(this.queue)).isNull();
	}

	@Test
	void completeAllAndClaimShouldKeepTheCapOnActiveJobs() {
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, List.of("a", "b", "c", "d", "e", "f"), EnqueueSpec.defaults());
		FlowLimits limits = new FlowLimits(3, null);
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2, limits).jobs();
		assertThat(claimed).hasSize(2);
		// a pipelined call that meets NOSCRIPT runs again after the others: load
		// complete_all first, so that
		// the claim counts active after the completion (before it, it would count one
		// more and take one fewer)
		this.jobs.outcomes().completeAll(this.queue, List.of(JobId.mint()), List.of(FencingToken.of(1)));
		CompleteAndClaimResult result = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(ids.get(0)), List.of(claimed.get(0).token()), nulls(1), LEASE, 4,
					limits, null);
		assertThat(result.completions().get(0).isApplied()).isTrue();
		assertThat(result.claim().jobs()).extracting(ClaimedJob::id).containsExactly(ids.get(2), ids.get(3));
		assertThat(result.claim().limit()).isEqualTo(ClaimResult.Limit.MAX_ACTIVE);
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isEqualTo(3);
	}

	private static List<@Nullable String> nulls(int count) {
		List<@Nullable String> nulls = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			nulls.add(null);
		}
		return nulls;
	}

	@Test
	void enqueueDelayedShouldWriteSchedule() {
		JobId id = this.jobs.enqueues()
			.enqueue(this.queue, "x", EnqueueSpec.defaults().withDelay(Duration.ofMinutes(5)));
		Double score = this.redis.opsForZSet().score(key(KeyType.SCHEDULE), id.toString());
		assertThat(score).isNotNull();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		Map<Object, Object> row = row(id);
		assertThat(row).containsEntry("state", "schedule").containsEntry("run_at", String.valueOf(score.longValue()));
		long enqueuedAt = Long.parseLong((String) row.get("enqueued_at"));
		assertThat(score.longValue() - enqueuedAt).isEqualTo(Duration.ofMinutes(5).toMillis());
	}

	@Test
	void enqueueWithPastRunAtShouldGoToPending() {
		JobId id = this.jobs.enqueues()
			.enqueue(this.queue, "x", EnqueueSpec.defaults().withRunAt(Instant.now().minusSeconds(60)));
		assertThat(row(id)).containsEntry("state", "pending");
	}

	@Test
	void enqueueAllShouldWriteEveryJobInOrder() {
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < 450; i++) {
			payloads.add("p" + i);
		}
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, payloads, EnqueueSpec.defaults());
		assertThat(ids).hasSize(450).isSorted();
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(450);
		assertThat(this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, ids.get(449)), "payload"))
			.isEqualTo("p449");
		assertThat(List.copyOf(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)))
			.containsExactlyElementsOf(ids.stream().map(JobId::toString).toList());
	}

	@Test
	void claimShouldMovePendingToActiveInMintOrder() {
		List<JobId> ids = this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b", "c"), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(ids.get(0), ids.get(1));
		assertThat(claimed).extracting(ClaimedJob::payload).containsExactly("a", "b");
		assertThat(claimed).extracting(ClaimedJob::token).containsOnly(FencingToken.of(1));
		ClaimedJob first = claimed.get(0);
		Double deadline = this.redis.opsForZSet().score(key(KeyType.ACTIVE), first.id().toString());
		assertThat(deadline).isNotNull();
		assertThat(deadline.longValue()).isEqualTo(first.leaseDeadline().toEpochMilli());
		assertThat(first.leaseDeadline().toEpochMilli() - first.claimedAt().toEpochMilli()).isEqualTo(LEASE.toMillis());
		assertThat(serverTime() - first.claimedAt().toEpochMilli()).isBetween(0L, 5_000L);
		assertThat(row(first.id())).containsEntry("state", "active").containsEntry("attempts", "1");
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(ids.get(2).toString());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).extracting(ClaimedJob::id)
			.containsExactly(ids.get(2));
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).isEmpty();
	}

	@Test
	void claimShouldLookPastForeignMembersAtTheHead() {
		for (int i = 0; i < 8; i++) {
			this.redis.opsForZSet().add(key(KeyType.PENDING), "AAA-foreign-" + i, 0);
		}
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 4)).extracting(ClaimedJob::id).containsExactly(id);
	}

	@Test
	void completeAfterCompleteShouldSayDone() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).reason())
			.isEqualTo(StaleReason.DONE);
	}

	@Test
	void claimShouldTakeHigherPriorityFirst() {
		JobId low = this.jobs.enqueues().enqueue(this.queue, "low", EnqueueSpec.defaults());
		JobId high = this.jobs.enqueues().enqueue(this.queue, "high", EnqueueSpec.defaults().withPriority(5));
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), high.toString())).isEqualTo(-5.0);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::id).containsExactly(high);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::id).containsExactly(low);
	}

	@Test
	void claimShouldCarryExtraFields() {
		this.jobs.enqueues()
			.enqueue(this.queue, "x", EnqueueSpec.defaults().withFields(Map.of("traceparent", "00-abc")));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(job.fields()).containsEntry("traceparent", "00-abc");
	}

	@Test
	void completeShouldRetireRowAndCount() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		TransitionResult result = this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(result.isApplied()).isTrue();
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, job.id()))).isFalse();
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isZero();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("1");
	}

	@Test
	void completeWithWrongTokenShouldBeStaleAndChangeNothing() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		TransitionResult result = this.jobs.outcomes()
			.complete(this.queue, job.id(), FencingToken.of(job.token().value() + 1));
		assertThat(result.isStale()).isTrue();
		assertThat(result.reason()).isEqualTo(StaleReason.TOKEN_MISMATCH);
		assertThat(row(job.id())).containsEntry("state", "active");
		assertThat(this.redis.opsForZSet().score(key(KeyType.ACTIVE), job.id().toString())).isNotNull();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isNull();
	}

	@Test
	void completeTwiceShouldBeStaleTheSecondTime() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isStale()).isTrue();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("1");
	}

	@Test
	void completeAfterReapBeforeReclaimShouldBeStale() {
		ClaimedJob job = enqueueAndClaim(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		assertThat(row(job.id())).containsEntry("state", "pending").containsEntry("attempts", "1");
		TransitionResult result = this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(result.isStale()).isTrue();
		assertThat(result.reason()).isEqualTo(StaleReason.NOT_ACTIVE);
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), job.id().toString())).isNotNull();
		assertThat(row(job.id())).containsEntry("state", "pending");
	}

	@Test
	void completeWithTokenOfLostLeaseShouldBeStaleAfterReclaim() {
		ClaimedJob first = enqueueAndClaim(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).requeued() == 1);
		ClaimedJob second = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(second.id()).isEqualTo(first.id());
		assertThat(second.token()).isEqualTo(FencingToken.of(2));
		assertThat(this.jobs.outcomes().complete(this.queue, first.id(), first.token()).isStale()).isTrue();
		assertThat(this.jobs.outcomes().retry(this.queue, first.id(), first.token(), "late", Duration.ZERO).isStale())
			.isTrue();
		assertThat(this.jobs.outcomes().extend(this.queue, first.id(), first.token(), LEASE).isStale()).isTrue();
		assertThat(this.jobs.outcomes().release(this.queue, first.id(), first.token()).isStale()).isTrue();
		assertThat(row(second.id())).containsEntry("state", "active").containsEntry("attempts", "2");
		assertThat(this.jobs.outcomes().complete(this.queue, second.id(), second.token()).isApplied()).isTrue();
	}

	@Test
	void retryShouldScheduleWithBackoffAndKeepError() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		TransitionResult result = this.jobs.outcomes()
			.retry(this.queue, job.id(), job.token(), "boom", Duration.ofMinutes(1));
		assertThat(result.isApplied()).isTrue();
		assertThat(result.state()).isEqualTo(JobState.SCHEDULE);
		Double runAt = this.redis.opsForZSet().score(key(KeyType.SCHEDULE), job.id().toString());
		assertThat(runAt).isNotNull();
		assertThat(result.at().toEpochMilli()).isEqualTo(runAt.longValue());
		assertThat(runAt.longValue() - serverTime()).isBetween(50_000L, 61_000L);
		assertThat(row(job.id())).containsEntry("state", "schedule").containsEntry("last_error", "boom");
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isZero();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "retried")).isEqualTo("1");
	}

	@Test
	void retryWithZeroBackoffShouldGoToPending() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		TransitionResult result = this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "boom", Duration.ZERO);
		assertThat(result.state()).isEqualTo(JobState.PENDING);
		assertThat(row(job.id())).containsEntry("state", "pending");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::token)
			.containsExactly(FencingToken.of(2));
	}

	@Test
	void retryOnLastAttemptShouldDeadLetter() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withMaxAttempts(2));
		for (int attempt = 1; attempt <= 2; attempt++) {
			ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
			assertThat(job.token()).isEqualTo(FencingToken.of(attempt));
			TransitionResult result = this.jobs.outcomes()
				.retry(this.queue, job.id(), job.token(), "fail " + attempt, Duration.ZERO);
			assertThat(result.state()).isEqualTo((attempt == 2) ? JobState.DEAD : JobState.PENDING);
		}
		Set<String> dead = this.redis.opsForZSet().range(key(KeyType.DEAD), 0, -1);
		assertThat(dead).hasSize(1);
		assertThat(this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, dead.iterator().next())))
			.containsEntry("state", "dead")
			.containsEntry("last_error", "fail 2")
			.containsKey("dead_at");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "dead")).isEqualTo("1");
	}

	@Test
	void deadLetterShouldSkipRemainingAttempts() {
		this.jobs.enqueues().enqueue(this.queue, "not json", EnqueueSpec.defaults().withMaxAttempts(10));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		TransitionResult result = this.jobs.outcomes()
			.deadLetter(this.queue, job.id(), job.token(), "unreadable payload");
		assertThat(result.state()).isEqualTo(JobState.DEAD);
		assertThat(row(job.id())).containsEntry("state", "dead").containsEntry("last_error", "unreadable payload");
	}

	@Test
	void extendShouldMoveTheDeadline() {
		ClaimedJob job = enqueueAndClaim(Duration.ofSeconds(1));
		TransitionResult result = this.jobs.outcomes()
			.extend(this.queue, job.id(), job.token(), Duration.ofMinutes(10));
		assertThat(result.isApplied()).isTrue();
		Double deadline = this.redis.opsForZSet().score(key(KeyType.ACTIVE), job.id().toString());
		assertThat(deadline.longValue()).isEqualTo(result.at().toEpochMilli());
		assertThat(deadline.longValue()).isGreaterThan(job.leaseDeadline().toEpochMilli() + 500_000);
	}

	@Test
	void releaseShouldReturnToPendingWithoutSpendingAnAttempt() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withMaxAttempts(1));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().release(this.queue, job.id(), job.token()).state()).isEqualTo(JobState.PENDING);
		assertThat(row(job.id())).containsEntry("state", "pending")
			.containsEntry("attempts", "1")
			.containsEntry("released", "1")
			.containsEntry("max_attempts", "1");
		ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(again.token()).isEqualTo(FencingToken.of(2));
		assertThat(again.attempt()).isEqualTo(1);
		assertThat(again.isLastAttempt()).isTrue();
		assertThat(this.jobs.outcomes().retry(this.queue, again.id(), again.token(), "e", Duration.ZERO).state())
			.isEqualTo(JobState.DEAD);
	}

	@Test
	void reapShouldLeaveLiveLeasesAlone() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.jobs.claims().claim(this.queue, LEASE, 1);
		assertThat(this.jobs.upkeep().reap(this.queue, 10)).isEqualTo(ReapResult.NONE);
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isEqualTo(1);
	}

	@Test
	void reapOfLastAttemptShouldDeadLetter() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withMaxAttempts(1));
		ClaimedJob job = this.jobs.claims().claim(this.queue, Duration.ofMillis(20), 1).get(0);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).dead() == 1);
		assertThat(row(job.id())).containsEntry("state", "dead");
		assertThat((String) row(job.id()).get("last_error")).contains("lease expired");
		assertThat(this.redis.opsForZSet().score(key(KeyType.DEAD), job.id().toString())).isNotNull();
	}

	@Test
	void promoteShouldMoveDueJobsOnly() {
		JobId soon = this.jobs.enqueues()
			.enqueue(this.queue, "soon", EnqueueSpec.defaults().withDelay(Duration.ofMillis(50)));
		JobId later = this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().promote(this.queue, 10) == 1);
		assertThat(row(soon)).containsEntry("state", "pending").containsKey("ready_at");
		assertThat(row(later)).containsEntry("state", "schedule");
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), soon.toString())).isEqualTo(0.0);
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "promoted")).isEqualTo("1");
	}

	@Test
	void delayedJobBeforeTheScheduleHeadShouldPushAScheduleToken() {
		this.jobs.enqueues().enqueue(this.queue, "first", EnqueueSpec.defaults().withDelay(Duration.ofHours(2)));
		assertThat(this.redis.opsForList().range(key(KeyType.WAKE), 0, -1)).as("the empty schedule's new head")
			.containsExactly("d");
		this.redis.delete(key(KeyType.WAKE));
		this.jobs.enqueues().enqueue(this.queue, "after", EnqueueSpec.defaults().withDelay(Duration.ofHours(3)));
		assertThat(this.redis.opsForList().size(key(KeyType.WAKE))).as("not before the head").isZero();
		this.jobs.enqueues().enqueue(this.queue, "before", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		assertThat(this.redis.opsForList().range(key(KeyType.WAKE), 0, -1)).as("before the head").containsExactly("d");
	}

	@Test
	void promotePassShouldTellWhenTheNextScheduledJobFallsDue() {
		JobId soon = this.jobs.enqueues()
			.enqueue(this.queue, "soon", EnqueueSpec.defaults().withDelay(Duration.ofMillis(50)));
		this.jobs.enqueues().enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		double laterAt = this.redis.opsForZSet()
			.rangeWithScores(key(KeyType.SCHEDULE), 1, 1)
			.iterator()
			.next()
			.getScore();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.jobs.upkeep().promotePass(this.queue, 10).moved() == 0
					&& row(soon).get("state").equals("pending"));
		MaintenancePass<Integer> pass = this.jobs.upkeep().promotePass(this.queue, 10);
		assertThat(pass.nextDueAt()).hasValue((long) laterAt);
		this.redis.delete(key(KeyType.SCHEDULE));
		assertThat(this.jobs.upkeep().promotePass(this.queue, 10).nextDueAt()).isEmpty();
	}

	@Test
	void reapPassShouldTellWhenTheNextLeaseFallsDue() {
		assertThat(this.jobs.upkeep().reapPass(this.queue, 10).nextDueAt()).isEmpty();
		this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(this.queue, Duration.ofMinutes(5), 1).get(0);
		MaintenancePass<ReapResult> pass = this.jobs.upkeep().reapPass(this.queue, 10);
		assertThat(pass.moved()).isEqualTo(ReapResult.NONE);
		assertThat(pass.nextDueAt()).hasValue(job.leaseDeadline().toEpochMilli());
	}

	@Test
	void scriptsShouldRecoverFromScriptFlush() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		long before = this.jobs.executor().getEvalFallbacks();
		flushScripts();
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.executor().getEvalFallbacks()).isGreaterThan(before);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		flushScripts();
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, java.util.Collections.nCopies(500, "p"), EnqueueSpec.defaults());
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(ids.size());
	}

	@Test
	void batchShouldAccountForEveryCallWhenOneFails() {
		this.jobs.executor().execute(COUNTING, List.of(counterKey("warm")), List.of("ok"));
		List<ScriptExecutor.Outcome> outcomes = this.jobs.executor()
			.executeAll(COUNTING, List.of(counting("a", "ok"), counting("b", "fail"), counting("c", "ok")));
		assertThat(outcomes).extracting(ScriptExecutor.Outcome::status)
			.startsWith(ScriptExecutor.Status.APPLIED, ScriptExecutor.Status.FAILED);
		assertThat(outcomes.get(0).reply()).containsExactly(1L);
		assertThat(outcomes.get(1).failure()).hasMessageContaining("EMQTEST refused");
		assertThat(counter("a")).as("a call before the failure runs once").isEqualTo("1");
		assertThat(counter("b")).isNull();
		if (this.jobs.executor().isCluster()) {
			// one call at a time on a cluster: the batch stops at the failure
			assertThat(outcomes.get(2).status()).isEqualTo(ScriptExecutor.Status.NOT_RUN);
			assertThat(counter("c")).isNull();
		}
		else {
			// pipelined: the call after the failure was already sent, and it applied
			assertThat(outcomes.get(2).status()).isEqualTo(ScriptExecutor.Status.APPLIED);
			assertThat(counter("c")).isEqualTo("1");
		}
	}

	@Test
	void batchAfterScriptFlushShouldRunEveryCallOnce() {
		this.jobs.executor().execute(COUNTING, List.of(counterKey("warm")), List.of("ok"));
		flushScripts();
		long before = this.jobs.executor().getEvalFallbacks();
		List<ScriptExecutor.Outcome> outcomes = this.jobs.executor()
			.executeAll(COUNTING, List.of(counting("a", "ok"), counting("b", "ok"), counting("c", "ok")));
		assertThat(outcomes).extracting(ScriptExecutor.Outcome::status).containsOnly(ScriptExecutor.Status.APPLIED);
		assertThat(List.of(counter("a"), counter("b"), counter("c"))).containsOnly("1");
		assertThat(this.jobs.executor().getEvalFallbacks()).isGreaterThan(before);
	}

	@Test
	void serverShouldNameEveryExpandedScriptByTheShaTheExecutorSends() {
		for (Script script : this.jobs.scripts()) {
			String sha = this.redis.execute((RedisCallback<String>) (connection) -> connection.scriptingCommands()
				.scriptLoad(script.body().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
			assertThat(sha).as(script.name()).isEqualTo(script.sha());
		}
		// the queue's stored format is checked at its first use, by a script of its own
		this.jobs.formats().check(this.queue);
		flushScripts();
		long before = this.jobs.executor().getEvalFallbacks();
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		assertThat(this.jobs.executor().getEvalFallbacks()).isEqualTo(before + 1);
		// the body the fall-back sent is cached under the SHA the executor sends
		this.jobs.enqueues().enqueue(this.queue, "y", EnqueueSpec.defaults());
		assertThat(this.jobs.executor().getEvalFallbacks()).isEqualTo(before + 1);
	}

	@Test
	void invalidInputShouldBeRejectedBeforeAnyWrite() {
		long keysBefore = countQueueKeys();
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.jobs.enqueues().enqueue("bad{name}", "x", EnqueueSpec.defaults()));
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.jobs.claims().claim("bad:name", LEASE, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.claims().claim(this.queue, Duration.ZERO, 1))
			.withMessageContaining("lease");
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.claims().claim(this.queue, LEASE, 0))
			.withMessageContaining("max");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes()
				.complete(this.queue, JobId.parse("JOB" + "0".repeat(22)), FencingToken.of(0)))
			.withMessageContaining("token");
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> this.jobs.outcomes().complete(this.queue, JobId.parse("JOB123"), FencingToken.of(1)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.outcomes()
				.retry(this.queue, JobId.mint(), FencingToken.of(1), "e", Duration.ofSeconds(-1)))
			.withMessageContaining("backoff");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueSpec.defaults().withFields(Map.of("state", "dead")))
			.withMessageContaining("'state' is reserved");
		assertThat(countQueueKeys()).isEqualTo(keysBefore);
	}

	@Test
	void auditShouldBeCleanAfterLifecycleAndReportDrift() {
		this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b", "c", "d"), EnqueueSpec.defaults());
		this.jobs.enqueues().enqueue(this.queue, "s", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 3);
		this.jobs.outcomes().complete(this.queue, claimed.get(0).id(), claimed.get(0).token());
		this.jobs.outcomes().deadLetter(this.queue, claimed.get(1).id(), claimed.get(1).token(), "x");
		QueueAuditor auditor = new QueueAuditor(this.jobs);
		AuditReport report = auditor.audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
		assertThat(report.counts()).containsEntry(JobState.PENDING, 1L)
			.containsEntry(JobState.ACTIVE, 1L)
			.containsEntry(JobState.SCHEDULE, 1L)
			.containsEntry(JobState.DEAD, 1L);
		assertThat(report.rows()).isEqualTo(4);
		String pendingId = this.redis.opsForZSet().range(key(KeyType.PENDING), 0, 0).iterator().next();
		this.redis.opsForZSet().add(key(KeyType.DEAD), pendingId, 1);
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, claimed.get(2).id()), "state", "pending");
		AuditReport drifted = auditor.audit(this.queue, Duration.ofSeconds(5));
		assertThat(drifted.isClean()).isFalse();
		assertThat(drifted.violations()).anyMatch((v) -> v.contains("is in both pending and dead"))
			.anyMatch((v) -> v.contains("row says state=pending"));
	}

	@Test
	void interleavedVerbsFromManyThreadsShouldKeepTheInvariant() throws Exception {
		int threads = 4;
		int operationsPerThread = 1500;
		Set<String> enqueued = java.util.concurrent.ConcurrentHashMap.newKeySet();
		List<String> completed = java.util.Collections.synchronizedList(new ArrayList<>());
		java.util.concurrent.ConcurrentLinkedDeque<ClaimedJob> held = new java.util.concurrent.ConcurrentLinkedDeque<>();
		java.util.concurrent.atomic.AtomicLong stale = new java.util.concurrent.atomic.AtomicLong();
		java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
		java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
		List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			long seed = 42L + t;
			futures.add(pool.submit(() -> {
				java.util.Random random = new java.util.Random(seed);
				start.await();
				for (int i = 0; i < operationsPerThread; i++) {
					int op = random.nextInt(100);
					if (op < 25) {
						List<String> payloads = java.util.Collections.nCopies(1 + random.nextInt(4), "p" + i);
						EnqueueSpec spec = EnqueueSpec.defaults().withMaxAttempts(1 + random.nextInt(3));
						if (random.nextInt(4) == 0) {
							spec = spec.withDelay(Duration.ofMillis(random.nextInt(30)));
						}
						this.jobs.enqueues()
							.enqueueAll(this.queue, payloads, spec)
							.forEach((id) -> enqueued.add(id.toString()));
					}
					else if (op < 45) {
						// the last fifth claims nothing, so what moved back to pending
						// stays there for the audit
						if (i > operationsPerThread * 4 / 5) {
							continue;
						}
						held.addAll(this.jobs.claims()
							.claim(this.queue, Duration.ofMillis(20 + random.nextInt(200)), 1 + random.nextInt(4)));
					}
					else if (op < 85) {
						ClaimedJob job = random.nextBoolean() ? held.pollFirst() : held.pollLast();
						if (job == null) {
							continue;
						}
						// a worker sometimes keeps going after losing its lease: reuse
						// the job later
						if (random.nextInt(10) == 0) {
							held.addLast(job);
						}
						TransitionResult result;
						int verb = random.nextInt(10);
						if (verb < 5) {
							result = this.jobs.outcomes().complete(this.queue, job.id(), job.token());
							if (result.isApplied()) {
								completed.add(job.id().toString());
							}
						}
						else if (verb < 7) {
							result = this.jobs.outcomes()
								.retry(this.queue, job.id(), job.token(), "e", Duration.ofMillis(random.nextInt(20)));
						}
						else if (verb < 8) {
							result = this.jobs.outcomes()
								.extend(this.queue, job.id(), job.token(), Duration.ofMillis(100));
							if (result.isApplied()) {
								held.addLast(job);
							}
						}
						else if (verb < 9) {
							result = this.jobs.outcomes().release(this.queue, job.id(), job.token());
						}
						else {
							result = this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "fatal");
						}
						if (result.isStale()) {
							stale.incrementAndGet();
						}
					}
					else if (op < 93) {
						this.jobs.upkeep().reap(this.queue, 1 + random.nextInt(50));
					}
					else {
						this.jobs.upkeep().promote(this.queue, 1 + random.nextInt(50));
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (java.util.concurrent.Future<?> future : futures) {
			future.get(5, java.util.concurrent.TimeUnit.MINUTES);
		}
		pool.shutdown();
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofHours(1));
		assertThat(report.violations()).isEmpty();
		assertThat(completed).doesNotHaveDuplicates();
		Set<String> located = new java.util.HashSet<>();
		for (KeyType type : List.of(KeyType.PENDING, KeyType.ACTIVE, KeyType.SCHEDULE, KeyType.DEAD)) {
			located.addAll(this.redis.opsForZSet().range(key(type), 0, -1));
		}
		assertThat(located).doesNotContainAnyElementsOf(completed);
		Set<String> accounted = new java.util.HashSet<>(located);
		accounted.addAll(completed);
		assertThat(accounted).isEqualTo(enqueued);
		assertThat(enqueued).hasSizeGreaterThan(1000);
		assertThat(completed).isNotEmpty();
		assertThat(stale.get()).isPositive();
	}

	@Test
	void replayShouldMoveDeadToPendingWithFreshBudget() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults().withMaxAttempts(1));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "boom", Duration.ZERO);
		assertThat(row(job.id())).containsEntry("state", "dead");
		TransitionResult replayed = this.jobs.admin().replay(this.queue, job.id(), 2);
		assertThat(replayed.state()).isEqualTo(JobState.PENDING);
		assertThat(row(job.id())).containsEntry("state", "pending")
			.containsEntry("attempts", "1")
			.containsEntry("released", "1")
			.containsEntry("max_attempts", "2")
			.doesNotContainKey("dead_at");
		assertThat(this.jobs.admin().replay(this.queue, job.id(), 2).isStale()).isTrue();
		ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(again.token()).isEqualTo(FencingToken.of(2));
		assertThat(again.attempt()).isEqualTo(1);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isStale()).isTrue();
		assertThat(this.jobs.outcomes().retry(this.queue, again.id(), again.token(), "e", Duration.ZERO).state())
			.isEqualTo(JobState.PENDING);
	}

	@Test
	void purgeDeadShouldDeleteDeadJobsAndRows() {
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, java.util.Collections.nCopies(250, "x"), EnqueueSpec.defaults());
		this.jobs.enqueues().enqueue(this.queue, "alive", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		for (ClaimedJob job : this.jobs.claims().claim(this.queue, LEASE, 250)) {
			this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "x");
		}
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isEqualTo(250);
		assertThat(this.jobs.admin().purgeDead(this.queue)).isEqualTo(250);
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isZero();
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, ids.get(0)))).isFalse();
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
		assertThat(report.rows()).isEqualTo(1);
	}

	@Test
	void inspectorShouldReportCountsCountersAndDeadPage() {
		this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b", "c"), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		this.jobs.outcomes().deadLetter(this.queue, claimed.get(0).id(), claimed.get(0).token(), "first");
		this.jobs.outcomes().deadLetter(this.queue, claimed.get(1).id(), claimed.get(1).token(), "second");
		QueueInspector inspector = new QueueInspector(this.jobs);
		QueueStats stats = inspector.stats(this.queue);
		assertThat(stats.pending()).isEqualTo(1);
		assertThat(stats.dead()).isEqualTo(2);
		assertThat(stats.count(JobState.ACTIVE)).isZero();
		assertThat(stats.counters()).containsEntry("enqueued", 3L).containsEntry("dead", 2L);
		List<JobView> dead = inspector.dead(this.queue, 0, 10);
		assertThat(dead).extracting(JobView::lastError).containsExactlyInAnyOrder("first", "second");
		assertThat(dead).extracting(JobView::state).containsOnly(JobState.DEAD);
		assertThat(inspector.dead(this.queue, 0, 1)).hasSize(1);
		assertThat(inspector.job(this.queue, JobId.mint())).isNull();
	}

	private ScriptExecutor.Invocation counting(String name, String verdict) {
		return new ScriptExecutor.Invocation(List.of(counterKey(name)), List.of(verdict));
	}

	private String counterKey(String name) {
		return "emq-test:{" + this.queue + "}:" + name;
	}

	private @Nullable String counter(String name) {
		return this.redis.opsForValue().get(counterKey(name));
	}

	protected String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	protected Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
	}

	protected long serverTime() {
		return this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	protected long countQueueKeys() {
		return new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).rows();
	}

	protected void flushScripts() {
		this.redis.execute((RedisCallback<Void>) (connection) -> {
			connection.scriptingCommands().scriptFlush();
			return null;
		});
	}

}
