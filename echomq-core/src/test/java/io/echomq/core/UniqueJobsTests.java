package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.CompleteAndClaimResult;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Script;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.core.RedisCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Unique jobs (until done, throttle, debounce) against each server of
 * {@link EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource(EngineServer.class)
class UniqueJobsTests extends EngineTestSupport {

	@Test
	void untilDoneShouldAnswerDuplicateWithTheHolderWhileTheJobExists() {
		EnqueueResult first = enqueue("a", UniqueKey.untilDone("invoice-42"));
		EnqueueResult second = enqueue("b", UniqueKey.untilDone("invoice-42"));
		assertThat(first.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(second.outcome()).isEqualTo(EnqueueResult.Outcome.DUPLICATE);
		assertThat(second.duplicate()).isTrue();
		assertThat(second.id()).isEqualTo(first.id());
		assertThat(this.redis.opsForValue().get(uniqueKey("invoice-42"))).isEqualTo(first.id().toString());
		assertThat(this.redis.getExpire(uniqueKey("invoice-42"))).isEqualTo(-1);
		assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(first.id().toString());
		assertThat(this.redis.<String, String>opsForHash().entries(this.keyspace.jobKey(this.queue, first.id())))
			.containsEntry("payload", "a")
			.containsEntry("unique", "invoice-42")
			.containsEntry("unique_mode", "until_done");
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "enqueued")).isEqualTo("1");
		assertThat(enqueue("c", UniqueKey.untilDone("invoice-43")).outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertAuditClean();
	}

	@Test
	void batchedCompleteShouldLeaveAJobWithAnUndeclaredUniqueKeyAndCompleteTheOthers() {
		EnqueueResult unique = enqueue("a", UniqueKey.untilDone("batch"));
		JobId plain = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(unique.id(), plain);
		List<TransitionResult> results = this.jobs.outcomes()
			.completeAll(this.queue, List.of(unique.id(), plain),
					List.of(claimed.get(0).token(), claimed.get(1).token()));
		assertThat(results.get(0)).as("not known to be recorded: the caller completes it declaring the key").isNull();
		assertThat(results.get(1).isApplied()).isTrue();
		assertThat(this.redis.opsForZSet().range(key(KeyType.ACTIVE), 0, -1)).containsExactly(unique.id().toString());
		assertThat(this.redis.opsForValue().get(uniqueKey("batch"))).isEqualTo(unique.id().toString());
		assertThat(this.jobs.outcomes().complete(this.queue, unique.id(), claimed.get(0).token(), "batch").isApplied())
			.isTrue();
		assertThat(this.redis.hasKey(uniqueKey("batch"))).isFalse();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("2");
		assertAuditClean();
	}

	@Test
	void completeAllAndClaimCompletesAUniqueJobDeclaringItsKeyAndClaimsInTheSameRoundTrip() {
		EnqueueResult unique = enqueue("a", UniqueKey.untilDone("next"));
		JobId plain = this.jobs.enqueues().enqueue(this.queue, "b", EnqueueSpec.defaults());
		JobId following = this.jobs.enqueues().enqueue(this.queue, "c", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		assertThat(claimed).extracting(ClaimedJob::uniqueKey).containsExactly("next", null);
		List<String> keys = new ArrayList<>();
		keys.add("next");
		keys.add(null);
		// a pipelined call that meets NOSCRIPT is sent again alone: load the scripts, so
		// that the count is exact
		this.jobs.outcomes().completeAll(this.queue, List.of(JobId.mint()), List.of(FencingToken.of(1)));
		this.jobs.outcomes().complete(this.queue, JobId.mint(), FencingToken.of(1), "other");
		long calls = this.jobs.executor().getCalls();
		CompleteAndClaimResult result = this.jobs.claims()
			.completeAllAndClaim(this.queue, List.of(unique.id(), plain),
					List.of(claimed.get(0).token(), claimed.get(1).token()), keys, LEASE, 2, FlowLimits.none(), null);
		// complete_all for the plain job, complete for the unique one, the claim: one
		// round trip of three calls
		assertThat(this.jobs.executor().getCalls() - calls).isEqualTo(3);
		assertThat(result.completions()).allSatisfy((completion) -> assertThat(completion.isApplied()).isTrue());
		assertThat(this.redis.hasKey(uniqueKey("next"))).isFalse();
		assertThat(result.claim().jobs()).extracting(ClaimedJob::id).containsExactly(following);
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("2");
		assertThat(this.redis.opsForZSet().range(key(KeyType.ACTIVE), 0, -1)).containsExactly(following.toString());
	}

	@Test
	void aCancelledJobHandedBackAtStopReleasesItsUniqueKey() {
		EnqueueResult first = enqueue("a", UniqueKey.untilDone("stopping"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.admin().cancel(this.queue, job.id()).outcome()).isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(this.jobs.outcomes().release(this.queue, job.id(), job.token()).reason())
			.isEqualTo(StaleReason.CANCELLED);
		assertKeyFreedFor(first, "stopping", "b");
		assertAuditClean();
	}

	@Test
	void untilDoneShouldHoldThroughClaimAndRetryAndReleaseOnComplete() {
		EnqueueResult first = enqueue("a", UniqueKey.untilDone("k"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(enqueue("b", UniqueKey.untilDone("k")).id()).isEqualTo(first.id());
		assertThat(this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "boom", Duration.ZERO).isApplied())
			.isTrue();
		assertThat(enqueue("b", UniqueKey.untilDone("k")).outcome()).isEqualTo(EnqueueResult.Outcome.DUPLICATE);
		ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().complete(this.queue, again.id(), again.token()).isApplied()).isTrue();
		assertKeyFreedFor(first, "k", "c");
		assertAuditClean();
	}

	@Test
	void completeShouldTakeOneCallWhenTheCallerNamesTheKeyAndTwoWhenTheScriptMustAsk() {
		enqueue("a", UniqueKey.untilDone("one"));
		enqueue("b", UniqueKey.untilDone("two"));
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		assertThat(claimed).extracting(ClaimedJob::uniqueKey).containsExactly("one", "two");
		long before = this.jobs.executor().getCalls();
		assertThat(this.jobs.outcomes()
			.complete(this.queue, claimed.get(0).id(), claimed.get(0).token(), claimed.get(0).uniqueKey())
			.isApplied()).isTrue();
		assertThat(this.jobs.executor().getCalls() - before).isEqualTo(1);
		before = this.jobs.executor().getCalls();
		assertThat(this.jobs.outcomes().complete(this.queue, claimed.get(1).id(), claimed.get(1).token()).isApplied())
			.isTrue();
		assertThat(this.jobs.executor().getCalls() - before).isEqualTo(2);
		assertThat(this.redis.hasKey(uniqueKey("one"))).isFalse();
		assertThat(this.redis.hasKey(uniqueKey("two"))).isFalse();
		assertAuditClean();
	}

	@Test
	void untilDoneShouldReleaseWhenTheJobIsDeadLetteredSoANewEnqueueSucceedsAndPurgeLeavesItAlone() {
		EnqueueResult first = enqueue("a", UniqueKey.untilDone("k"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		TransitionResult dead = this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "fatal");
		assertThat(dead.isApplied()).isTrue();
		assertThat(dead.state()).isEqualTo(JobState.DEAD);
		assertThat(this.redis.hasKey(uniqueKey("k"))).isFalse();
		EnqueueResult next = enqueue("b", UniqueKey.untilDone("k"));
		assertThat(next.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(this.jobs.admin().purgeDead(this.queue)).isEqualTo(1);
		assertThat(this.redis.opsForValue().get(uniqueKey("k"))).isEqualTo(next.id().toString());
		assertThat(enqueue("c", UniqueKey.untilDone("k")).id()).isEqualTo(next.id());
		assertThat(first.id()).isNotEqualTo(next.id());
		assertAuditClean();
	}

	@Test
	void aRetainedJobHoldingAKeyShouldCompleteAndReleaseIt() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		EnqueueResult held = enqueue("a", UniqueKey.untilDone("retained"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(job.id()).isEqualTo(held.id());
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		assertThat(this.redis.hasKey(uniqueKey("retained"))).isFalse();
		assertThat(this.redis.opsForZSet().score(key(KeyType.COMPLETED), job.id().toString())).isNotNull();
		assertAuditClean();
	}

	@Test
	void cancelAndDeleteOfAWaitingJobShouldReleaseItsKeyAndACancelledRunningJobToo() {
		EnqueueResult cancelled = enqueue("a", UniqueKey.untilDone("cancelled"));
		assertThat(this.jobs.admin().cancel(this.queue, cancelled.id()).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.redis.hasKey(uniqueKey("cancelled"))).isFalse();
		EnqueueResult deleted = this.jobs.enqueues()
			.enqueueUnique(this.queue, JobId.mint(), "b",
					EnqueueSpec.defaults().withDelay(Duration.ofHours(1)).withUnique(UniqueKey.untilDone("deleted")));
		assertThat(this.jobs.admin().delete(this.queue, deleted.id()).isApplied()).isTrue();
		assertThat(this.redis.hasKey(uniqueKey("deleted"))).isFalse();
		EnqueueResult running = enqueue("c", UniqueKey.untilDone("running"));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.admin().cancel(this.queue, running.id()).outcome())
			.isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(this.redis.hasKey(uniqueKey("running"))).isTrue();
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).reason())
			.isEqualTo(StaleReason.CANCELLED);
		assertThat(this.redis.hasKey(uniqueKey("running"))).isFalse();
		for (String key : List.of("cancelled", "deleted", "running")) {
			assertThat(enqueue("again", UniqueKey.untilDone(key)).outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		}
		assertAuditClean();
	}

	@Test
	void untilDoneShouldReleaseWhenTheLastAttemptFailsOrItsLeaseExpires() {
		enqueue("a", UniqueKey.untilDone("retried"), 1);
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "boom", Duration.ZERO).state())
			.isEqualTo(JobState.DEAD);
		assertThat(this.redis.hasKey(uniqueKey("retried"))).isFalse();

		EnqueueResult reaped = enqueue("b", UniqueKey.untilDone("reaped"), 1);
		EnqueueResult plain = enqueue("c", UniqueKey.untilDone("other"), 1);
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, Duration.ofMillis(1), 2);
		assertThat(claimed).hasSize(2);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.jobs.upkeep().reap(this.queue, 10).dead() > 0
					|| this.redis.opsForZSet().size(key(KeyType.ACTIVE)) == 0);
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isEqualTo(3);
		assertThat(this.redis.hasKey(uniqueKey("reaped"))).isFalse();
		assertThat(this.redis.hasKey(uniqueKey("other"))).isFalse();
		assertThat(enqueue("d", UniqueKey.untilDone("reaped")).id()).isNotEqualTo(reaped.id());
		assertThat(enqueue("e", UniqueKey.untilDone("other")).id()).isNotEqualTo(plain.id());
		assertAuditClean();
	}

	@Test
	void manyThreadsEnqueueingTheSameKeyShouldMakeExactlyOneJob() throws Exception {
		int threads = 16;
		int each = 25;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<List<EnqueueResult>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				futures.add(executor.submit(() -> {
					start.await();
					List<EnqueueResult> results = new ArrayList<>();
					for (int i = 0; i < each; i++) {
						results.add(enqueue("t" + thread + "-" + i, UniqueKey.untilDone("same")));
					}
					return results;
				}));
			}
			start.countDown();
			List<EnqueueResult> all = new ArrayList<>();
			for (Future<List<EnqueueResult>> future : futures) {
				all.addAll(future.get(60, TimeUnit.SECONDS));
			}
			assertThat(all).hasSize(threads * each);
			assertThat(all).filteredOn((result) -> !result.duplicate()).hasSize(1);
			assertThat(all).extracting(EnqueueResult::id).containsOnly(all.get(0).id());
			assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(1);
			assertAuditClean();
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void twoJvmsEnqueueingTheSameKeyShouldMakeExactlyOneJob() throws Exception {
		int threads = 8;
		int each = 25;
		Process child = startChild("twojvm", threads, each);
		ExecutorService executor = Executors.newFixedThreadPool(threads + 1);
		try {
			BufferedReader output = new BufferedReader(
					new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
			List<String> lines = new ArrayList<>();
			String line;
			while ((line = output.readLine()) != null && !line.equals("READY")) {
				lines.add(line);
			}
			assertThat(line).as("child ready; its output: %s", lines).isEqualTo("READY");
			CountDownLatch start = new CountDownLatch(1);
			List<Future<List<EnqueueResult>>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					List<EnqueueResult> results = new ArrayList<>();
					for (int i = 0; i < each; i++) {
						results.add(enqueue("parent", UniqueKey.untilDone("twojvm")));
					}
					return results;
				}));
			}
			Future<List<String>> childLines = executor.submit(() -> {
				List<String> read = new ArrayList<>();
				String next;
				while ((next = output.readLine()) != null) {
					read.add(next);
				}
				return read;
			});
			OutputStream input = child.getOutputStream();
			input.write("go\n".getBytes(StandardCharsets.UTF_8));
			input.flush();
			start.countDown();
			List<EnqueueResult> mine = new ArrayList<>();
			for (Future<List<EnqueueResult>> future : futures) {
				mine.addAll(future.get(60, TimeUnit.SECONDS));
			}
			assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
			List<String> theirs = childLines.get(10, TimeUnit.SECONDS);
			assertThat(theirs).as("child output").contains("DONE");
			List<String> results = theirs.stream().filter((l) -> l.startsWith("RESULT ")).toList();
			assertThat(results).hasSize(threads * each);
			long created = mine.stream().filter((result) -> !result.duplicate()).count()
					+ results.stream().filter((l) -> l.endsWith(" CREATED")).count();
			assertThat(created).isEqualTo(1);
			String holder = this.redis.opsForValue().get(uniqueKey("twojvm"));
			assertThat(mine).extracting((result) -> result.id().toString()).containsOnly(holder);
			assertThat(results).allSatisfy((l) -> assertThat(l.split(" ")[1]).isEqualTo(holder));
			assertThat(this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1)).containsExactly(holder);
			assertAuditClean();
		}
		finally {
			executor.shutdownNow();
			child.destroyForcibly();
		}
	}

	@Test
	void throttleShouldRefuseForItsWindowOnServerTimeWhateverBecameOfTheJob() {
		Duration window = Duration.ofMillis(1_500);
		EnqueueResult first = enqueue("a", UniqueKey.throttle("report", window));
		long firstAt = enqueuedAt(first.id());
		Long ttl = this.redis.execute((RedisCallback<Long>) (connection) -> connection.keyCommands()
			.pTtl(uniqueKey("report").getBytes(StandardCharsets.UTF_8)));
		assertThat(ttl).isBetween(1L, window.toMillis());
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		EnqueueResult during = enqueue("b", UniqueKey.throttle("report", window));
		assertThat(during.outcome()).isEqualTo(EnqueueResult.Outcome.DUPLICATE);
		assertThat(during.id()).isEqualTo(first.id());
		EnqueueResult after = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> enqueue("c", UniqueKey.throttle("report", window)), (result) -> !result.duplicate());
		assertThat(enqueuedAt(after.id()) - firstAt).isGreaterThanOrEqualTo(window.toMillis());
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(1);
		assertAuditClean();
	}

	@Test
	void debounceShouldKeepOnlyTheLastPayloadAndPushTheRunAtBack() {
		Duration delay = Duration.ofSeconds(30);
		EnqueueResult first = enqueue("v1", UniqueKey.debounce("search", delay));
		assertThat(first.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		long firstRunAt = runAt(first.id());
		EnqueueResult last = first;
		for (int i = 2; i <= 5; i++) {
			last = enqueue("v" + i, UniqueKey.debounce("search", delay));
			assertThat(last.outcome()).isEqualTo(EnqueueResult.Outcome.DEBOUNCED);
			assertThat(last.id()).isEqualTo(first.id());
		}
		long lastRunAt = runAt(first.id());
		assertThat(lastRunAt).isGreaterThanOrEqualTo(firstRunAt);
		assertThat(lastRunAt - serverTime()).isBetween(delay.toMillis() - 5_000, delay.toMillis());
		assertThat(this.redis.opsForZSet().score(key(KeyType.SCHEDULE), first.id().toString()))
			.isEqualTo((double) lastRunAt);
		assertThat(this.redis.opsForZSet().size(key(KeyType.SCHEDULE))).isEqualTo(1);
		assertThat(this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, first.id()), "payload"))
			.isEqualTo("v5");
		assertAuditClean();
	}

	@Test
	void debounceShouldReplaceALongPayloadWithoutLeavingItsParts() {
		String longPayload = "L".repeat(200);
		EnqueueResult first = enqueue(longPayload, UniqueKey.debounce("parts", Duration.ofSeconds(30)));
		String jobKey = this.keyspace.jobKey(this.queue, first.id());
		assertThat(this.redis.opsForHash().keys(jobKey)).contains("+2", "+3", "+4");
		EnqueueResult shorter = enqueue("s".repeat(70), UniqueKey.debounce("parts", Duration.ofSeconds(30)));
		assertThat(shorter.outcome()).isEqualTo(EnqueueResult.Outcome.DEBOUNCED);
		assertThat(this.redis.opsForHash().keys(jobKey)).contains("+2").doesNotContain("+3", "+4");
		assertThat(new QueueInspector(this.jobs).row(this.queue, first.id())).containsEntry("payload", "s".repeat(70));
		assertAuditClean();
	}

	@Test
	void debounceShouldMoveAPendingHolderBackToScheduleAndLeaveARunningOneToFinish() {
		Duration delay = Duration.ofMillis(1);
		EnqueueResult first = enqueue("v1", UniqueKey.debounce("d", delay));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().promote(this.queue, 10) == 1);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isEqualTo(1);
		EnqueueResult debounced = enqueue("v2", UniqueKey.debounce("d", Duration.ofSeconds(30)));
		assertThat(debounced.outcome()).isEqualTo(EnqueueResult.Outcome.DEBOUNCED);
		assertThat(this.redis.opsForZSet().size(key(KeyType.PENDING))).isZero();
		assertThat(this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, first.id()), "state"))
			.isEqualTo("schedule");
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE), first.id().toString(), 0);
		assertThat(this.jobs.upkeep().promote(this.queue, 10)).isEqualTo(1);
		ClaimedJob running = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(running.payload()).isEqualTo("v2");
		EnqueueResult next = enqueue("v3", UniqueKey.debounce("d", Duration.ofSeconds(30)));
		assertThat(next.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(next.id()).isNotEqualTo(first.id());
		assertThat(this.jobs.outcomes().complete(this.queue, running.id(), running.token()).isApplied()).isTrue();
		assertThat(this.redis.opsForValue().get(uniqueKey("d"))).isEqualTo(next.id().toString());
		assertAuditClean();
	}

	@Test
	void debounceOfAPendingHolderThatHeadsTheScheduleShouldPushAScheduleToken() {
		EnqueueResult first = enqueue("v1", UniqueKey.debounce("d", Duration.ofMillis(1)));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().promote(this.queue, 10) == 1);
		this.redis.delete(key(KeyType.WAKE));
		EnqueueResult debounced = enqueue("v2", UniqueKey.debounce("d", Duration.ofHours(1)));
		assertThat(debounced.outcome()).isEqualTo(EnqueueResult.Outcome.DEBOUNCED);
		assertThat(debounced.id()).isEqualTo(first.id());
		assertThat(this.redis.opsForList().range(key(KeyType.WAKE), 0, -1)).as("the holder heads the schedule")
			.containsExactly("d");
		assertAuditClean();
	}

	@Test
	void aKeyLeftPointingAtAJobThatIsGoneShouldBeTakenOver() {
		JobId ghost = JobId.mint();
		this.redis.opsForValue().set(uniqueKey("leaked"), ghost.toString());
		EnqueueResult result = enqueue("a", UniqueKey.untilDone("leaked"));
		assertThat(result.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(this.redis.opsForValue().get(uniqueKey("leaked"))).isEqualTo(result.id().toString());
	}

	@Test
	void badUniqueKeysShouldBeRefusedBeforeAnyWrite() {
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.untilDone("a{b}"))
			.withMessageContaining("a{b}");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.untilDone("a:b")).withMessageContaining("a:b");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.untilDone("")).withMessageContaining("empty");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.untilDone("x".repeat(129)))
			.withMessageContaining("129 bytes")
			.withMessageContaining("128");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.throttle("t", Duration.ZERO))
			.withMessageContaining("PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.throttle("t", Duration.ofSeconds(-1)))
			.withMessageContaining("PT-1S");
		assertThatIllegalArgumentException().isThrownBy(() -> UniqueKey.debounce("t", null))
			.withMessageContaining("null");
		EnqueueSpec unique = EnqueueSpec.defaults().withUnique(UniqueKey.untilDone("k"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.enqueues().enqueueAll(this.queue, List.of("a", "b"), unique))
			.withMessageContaining("enqueueUnique");
		assertThat(this.redis.keys("emq:{" + this.queue + "}:*")).isEmpty();
	}

	@Test
	void theScriptShouldRefuseAUniqueKeyItWasNotGivenAndWriteNothing() {
		EnqueueSpec spec = EnqueueSpec.defaults().withFields(Map.of("x", "1"));
		List<String> keys = List.of(key(KeyType.PENDING), key(KeyType.SCHEDULE), key(KeyType.METRICS),
				key(KeyType.WAKE), this.keyspace.jobKey(this.queue, JobId.mint()),
				this.keyspace.uniqueKeyPrefix(this.queue) + "other");
		// ARGV[6] is the lane ('' for none), then the extra field pairs
		List<String> args = List.of("3", "0", "0", "", "2", "", "unique", "k", "unique_mode", "until_done", "JOB-x",
				"p");
		assertThat(spec.unique()).isNull();
		org.assertj.core.api.Assertions.assertThatException()
			.isThrownBy(() -> this.jobs.executor().execute(Script.load("enqueue"), keys, args))
			.withMessageContaining("EMQARG")
			.withMessageContaining("unique:k");
		assertThat(this.redis.keys("emq:{" + this.queue + "}:*")).isEmpty();
	}

	@Test
	void auditShouldReportALeakedKey() {
		EnqueueResult held = enqueue("a", UniqueKey.untilDone("held"));
		this.redis.opsForValue().set(uniqueKey("gone"), JobId.mint().toString());
		this.redis.opsForValue().set(uniqueKey("other-row"), held.id().toString());
		this.redis.opsForValue().set(uniqueKey("junk"), "not-a-job");
		EnqueueResult died = enqueue("b", UniqueKey.untilDone("died"));
		this.jobs.claims()
			.claim(this.queue, LEASE, 2)
			.stream()
			.filter((job) -> job.id().equals(died.id()))
			.forEach((job) -> this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "fatal"));
		this.redis.opsForValue().set(uniqueKey("died"), died.id().toString());
		enqueue("c", UniqueKey.throttle("window", Duration.ofMinutes(5)));
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).hasSize(4);
		assertThat(report.violations()).anySatisfy((v) -> assertThat(v).contains(uniqueKey("died")).contains("dead"));
		assertThat(report.violations()).anySatisfy((v) -> assertThat(v).contains(uniqueKey("gone")).contains("no row"))
			.anySatisfy((v) -> assertThat(v).contains(uniqueKey("other-row")).contains("does not name"))
			.anySatisfy((v) -> assertThat(v).contains(uniqueKey("junk")).contains("not a JOB id"));
	}

	protected EnqueueResult enqueue(String payload, UniqueKey unique) {
		return enqueue(payload, unique, 3);
	}

	protected EnqueueResult enqueue(String payload, UniqueKey unique, int maxAttempts) {
		return this.jobs.enqueues()
			.enqueueUnique(this.queue, JobId.mint(), payload,
					EnqueueSpec.defaults().withMaxAttempts(maxAttempts).withUnique(unique));
	}

	protected void assertAuditClean() {
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(60));
		assertThat(report.violations()).isEmpty();
	}

	protected String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	protected String uniqueKey(String name) {
		return this.keyspace.uniqueKey(this.queue, name);
	}

	protected long serverTime() {
		return this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
	}

	private void assertKeyFreedFor(EnqueueResult first, String key, String payload) {
		assertThat(this.redis.hasKey(uniqueKey(key))).isFalse();
		EnqueueResult next = enqueue(payload, UniqueKey.untilDone(key));
		assertThat(next.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(next.id()).isNotEqualTo(first.id());
	}

	private long enqueuedAt(JobId id) {
		return Long
			.parseLong((String) this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, id), "enqueued_at"));
	}

	private long runAt(JobId id) {
		return Long.parseLong((String) this.redis.opsForHash().get(this.keyspace.jobKey(this.queue, id), "run_at"));
	}

	private Process startChild(String key, int threads, int each) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String[] connection = this.engine.connectionArguments();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
				"-cp", System.getProperty("java.class.path"), UniqueEnqueuer.class.getName(), connection[0],
				connection[1], this.queue, key, Integer.toString(threads), Integer.toString(each)));
		return new ProcessBuilder(command).redirectErrorStream(true).start();
	}

}
