package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Script;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.MinuteCount;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Job history with bounded retention (completed and dead locations), the per-minute
 * series, and the operator verbs on a job by id (delete, run now) against each server of
 * {@link EngineServer}.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class RetentionTests extends EngineTestSupport {

	@Test
	void withoutRetentionCompleteShouldRetireTheRowAndKeepNoHistory() {
		JobId id = completeOne("x");
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		assertThat(this.redis.hasKey(key(KeyType.COMPLETED))).isFalse();
		assertThat(this.jobs.upkeep().retention(this.queue, JobState.COMPLETED)).isEqualTo(Retention.NONE);
		assertThat(this.jobs.upkeep().retention(this.queue, JobState.DEAD)).isEqualTo(Retention.DEAD_DEFAULT);
	}

	@Test
	void retainedCompleteShouldMoveTheJobToCompletedWithItsRowInOneMove() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		long before = serverTime();
		JobId id = completeOne("{\"a\":1}");
		Double score = this.redis.opsForZSet().score(key(KeyType.COMPLETED), id.toString());
		assertThat(score).isNotNull().isGreaterThanOrEqualTo((double) before);
		Map<Object, Object> row = row(id);
		assertThat(row).containsEntry("state", "completed")
			.containsEntry("payload", "{\"a\":1}")
			.containsEntry("attempts", "1")
			.containsEntry("completed_at", Long.toString(score.longValue()));
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isZero();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("1");
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
		assertThat(report.counts()).containsEntry(JobState.COMPLETED, 1L);
		assertThat(report.rows()).isEqualTo(1);
		QueueInspector inspector = new QueueInspector(this.jobs);
		assertThat(inspector.stats(this.queue).completed()).isEqualTo(1);
		assertThat(inspector.stats(this.queue).count(JobState.COMPLETED)).isEqualTo(1);
	}

	@Test
	void aRetainedJobCompletedAgainShouldSayDoneAndChangeNothing() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		ClaimedJob job = enqueueAndClaim(LEASE);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		TransitionResult again = this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(again.reason()).isEqualTo(StaleReason.DONE);
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("1");
		assertThat(row(job.id())).containsEntry("state", "completed");
	}

	@Test
	void countBoundShouldHoldAfterEveryCompletionAndDeleteTrimmedRows() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(5), Retention.DEAD_DEFAULT);
		List<JobId> done = new ArrayList<>();
		for (int i = 0; i < 40; i++) {
			done.add(completeOne("job-" + i));
			assertThat(this.redis.opsForZSet().size(key(KeyType.COMPLETED))).isLessThanOrEqualTo(5);
		}
		List<JobId> kept = done.subList(35, 40);
		assertThat(this.redis.opsForZSet().range(key(KeyType.COMPLETED), 0, -1))
			.containsExactlyElementsOf(kept.stream().map(JobId::toString).toList());
		for (JobId id : done.subList(0, 35)) {
			assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).as("row of %s", id).isFalse();
		}
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations()).isEmpty();
	}

	@Test
	void trimShouldBeBoundedPerCompletion() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(100), Retention.DEAD_DEFAULT);
		for (int i = 0; i < 60; i++) {
			completeOne("job-" + i);
		}
		// the bound shrinks to 10: each completion removes at most a batch (16) of the 51
		// over it
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		List<Long> sizes = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			completeOne("more-" + i);
			sizes.add(this.redis.opsForZSet().size(key(KeyType.COMPLETED)));
		}
		assertThat(sizes.get(0)).isGreaterThan(10);
		for (int i = 1; i < sizes.size(); i++) {
			assertThat(sizes.get(i - 1) - sizes.get(i)).isLessThanOrEqualTo(15);
		}
		assertThat(sizes.get(sizes.size() - 1)).isEqualTo(10);
	}

	@Test
	void ageBoundShouldTrimOldJobsOnTheMaintenanceTrim() {
		this.jobs.upkeep().retain(this.queue, Retention.ofAge(Duration.ofMillis(300)), Retention.DEAD_DEFAULT);
		JobId old = completeOne("old");
		assertThat(this.jobs.upkeep().trimHistory(this.queue, 100)).isZero();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().trimHistory(this.queue, 100) == 1);
		assertThat(this.redis.hasKey(key(KeyType.COMPLETED))).isFalse();
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, old))).isFalse();
	}

	@Test
	void deadShouldBeTrimmedToItsBoundsInTheDeadLetterPathWithItsRows() {
		this.jobs.upkeep().retain(this.queue, Retention.NONE, Retention.ofCount(3));
		List<JobId> dead = new ArrayList<>();
		for (int i = 0; i < 25; i++) {
			this.jobs.enqueues().enqueue(this.queue, "d" + i, EnqueueSpec.defaults());
			ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
			TransitionResult result = (i % 2 == 0)
					? this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "boom")
					: this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "boom", Duration.ZERO);
			if (i % 2 == 1) {
				// a retry spends an attempt; the budget of 3 ends in dead on the third
				for (int attempt = 2; attempt <= 3; attempt++) {
					ClaimedJob again = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
					result = this.jobs.outcomes().retry(this.queue, again.id(), again.token(), "boom", Duration.ZERO);
				}
			}
			assertThat(result.state()).isEqualTo(JobState.DEAD);
			dead.add(job.id());
			assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isLessThanOrEqualTo(3);
		}
		assertThat(this.jobs.upkeep().trimHistory(this.queue, 1_000)).isZero();
		assertThat(this.redis.opsForZSet().range(key(KeyType.DEAD), 0, -1))
			.containsExactlyInAnyOrderElementsOf(dead.subList(22, 25).stream().map(JobId::toString).toList());
		for (JobId id : dead.subList(0, 22)) {
			assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		}
		assertThat(this.jobs.upkeep().trimHistory(this.queue, 1_000)).isZero();
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations()).isEmpty();
	}

	@Test
	void trimHistoryShouldTrimDeadJobsOfAnyPathAndStopAtItsLimit() {
		deadLettersKeptForever(30);
		assertThat(this.jobs.upkeep().trimHistory(this.queue, 1_000)).isZero();
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isEqualTo(30);
		this.jobs.upkeep().retain(this.queue, Retention.NONE, Retention.ofCount(1));
		long first = this.jobs.upkeep().trimHistory(this.queue, 10);
		assertThat(first).isBetween(10L, 10L + 15);
		assertThat(this.jobs.upkeep().trimHistory(this.queue, 1_000)).isEqualTo(29 - first);
		assertThat(this.redis.opsForZSet().size(key(KeyType.DEAD))).isEqualTo(1);
	}

	@Test
	void trimShouldLeaveTheRowOfAStrayCopyToItsJob() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(1), Retention.DEAD_DEFAULT);
		JobId stray = this.jobs.enqueues()
			.enqueue(this.queue, "live", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		this.redis.opsForZSet().add(key(KeyType.COMPLETED), stray.toString(), 1);
		completeOne("a");
		completeOne("b");
		this.jobs.upkeep().trimHistory(this.queue, 100);
		assertThat(this.redis.opsForZSet().score(key(KeyType.COMPLETED), stray.toString())).isNull();
		assertThat(row(stray)).containsEntry("state", "schedule").containsEntry("payload", "live");
		assertThat(this.redis.opsForZSet().size(key(KeyType.COMPLETED))).isEqualTo(1);
	}

	@Test
	void invalidRetentionShouldBeRejectedWithTheBadValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> Retention.ofCount(-1)).withMessageContaining("was -1");
		assertThatIllegalArgumentException().isThrownBy(() -> Retention.ofAge(Duration.ofSeconds(-5)))
			.withMessageContaining("PT-5S");
		assertThatIllegalArgumentException().isThrownBy(() -> Retention.ofAge(Duration.ofNanos(10)))
			.withMessageContaining("PT0.00000001S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.upkeep().retention(this.queue, JobState.PENDING))
			.withMessageContaining("pending");
		assertThat(Set.of(Retention.NONE.isEnabled(), Retention.DEAD_DEFAULT.isEnabled()))
			.containsExactlyInAnyOrder(false, true);
	}

	@Test
	void trimScriptShouldRefuseMalformedArgumentsBeforeAnyWrite() {
		deadLettersKeptForever(3);
		Script trim = this.jobs.scripts().stream().filter((s) -> s.name().equals("trim")).findFirst().orElseThrow();
		ScriptExecutor executor = this.jobs.executor();
		String dead = key(KeyType.DEAD);
		assertThat(List.of(List.of("pending", "1", "0"), List.of("dead", "0", "0"), List.of("dead", "-1", "0"),
				List.of("dead", "1", "x")))
			.allSatisfy((args) -> assertThat(
					executor.executeAll(trim, List.of(new ScriptExecutor.Invocation(List.of(dead), args)))
						.get(0)
						.failure())
				.hasMessageContaining("EMQARG"));
		assertThat(this.redis.opsForZSet().size(dead)).isEqualTo(3);
	}

	@Test
	void transitionsShouldCountEachMinuteOnTheServer() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(2), Retention.DEAD_DEFAULT);
		completeOne("a");
		this.jobs.upkeep().retain(this.queue, Retention.NONE, Retention.DEAD_DEFAULT);
		completeOne("b");
		this.jobs.enqueues().enqueueAll(this.queue, List.of("c", "d", "e"), EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 3);
		assertThat(this.jobs.outcomes()
			.retry(this.queue, claimed.get(0).id(), claimed.get(0).token(), "x", Duration.ofHours(1))
			.isApplied()).isTrue();
		assertThat(this.jobs.outcomes()
			.deadLetter(this.queue, claimed.get(1).id(), claimed.get(1).token(), "y")
			.isApplied()).isTrue();
		assertThat(this.jobs.outcomes()
			.snooze(this.queue, claimed.get(2).id(), claimed.get(2).token(), "later", Duration.ofHours(1))
			.isApplied()).isTrue();
		long minute = serverTime() / 60_000;
		List<MinuteCount> series = new QueueInspector(this.jobs).minutes(this.queue, 60);
		long completed = series.stream().mapToLong(MinuteCount::completed).sum();
		long failed = series.stream().mapToLong(MinuteCount::failed).sum();
		assertThat(completed).isEqualTo(2);
		assertThat(failed).isEqualTo(2);
		assertThat(series)
			.allSatisfy((m) -> assertThat(m.start().toEpochMilli() / 60_000).isBetween(minute - 1, minute));
	}

	@Test
	void theFirstEventOfAMinuteShouldDropMinutesOlderThanTheWindow() {
		String minutes = key(KeyType.MINUTES);
		long minute = serverTime() / 60_000;
		this.redis.opsForHash().put(minutes, (minute - 121) + ":completed", "7");
		this.redis.opsForHash().put(minutes, (minute - 500) + ":failed", "3");
		this.redis.opsForHash().put(minutes, (minute - 30) + ":completed", "5");
		completeOne("a");
		assertThat(this.redis.opsForHash().keys(minutes)).map(String::valueOf)
			.doesNotContain((minute - 121) + ":completed", (minute - 500) + ":failed")
			.contains((minute - 30) + ":completed");
		List<MinuteCount> lastHour = new QueueInspector(this.jobs).minutes(this.queue, 60);
		assertThat(lastHour.stream().mapToLong(MinuteCount::completed).sum()).isEqualTo(6);
		assertThat(
				new QueueInspector(this.jobs).minutes(this.queue, 10).stream().mapToLong(MinuteCount::completed).sum())
			.isEqualTo(1);
		assertThatIllegalArgumentException().isThrownBy(() -> new QueueInspector(this.jobs).minutes(this.queue, 0))
			.withMessageContaining("was 0");
	}

	@Test
	void aMinutesKeyOfTheWrongTypeShouldCostTheSeriesNotTheTransition() {
		this.redis.opsForValue().set(key(KeyType.MINUTES), "not a hash");
		JobId id = completeOne("a");
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "completed")).isEqualTo("1");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations())
			.anyMatch((v) -> v.contains(key(KeyType.MINUTES)) && v.contains("not a hash"));
	}

	@Test
	void deleteShouldRemoveAWaitingOrRestingJobWithItsRowAndRefuseAnActiveOne() {
		this.jobs.upkeep().retain(this.queue, Retention.ofCount(10), Retention.DEAD_DEFAULT);
		JobId completed = completeOne("c");
		JobId scheduled = this.jobs.enqueues()
			.enqueue(this.queue, "s", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		this.jobs.enqueues().enqueue(this.queue, "d", EnqueueSpec.defaults());
		ClaimedJob dying = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		this.jobs.outcomes().deadLetter(this.queue, dying.id(), dying.token(), "boom");
		this.jobs.enqueues().enqueue(this.queue, "a", EnqueueSpec.defaults());
		ClaimedJob active = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		JobId pending = this.jobs.enqueues().enqueue(this.queue, "p", EnqueueSpec.defaults());

		assertThat(this.jobs.admin().delete(this.queue, pending).state()).isEqualTo(JobState.PENDING);
		assertThat(this.jobs.admin().delete(this.queue, scheduled).state()).isEqualTo(JobState.SCHEDULE);
		assertThat(this.jobs.admin().delete(this.queue, dying.id()).state()).isEqualTo(JobState.DEAD);
		assertThat(this.jobs.admin().delete(this.queue, completed).state()).isEqualTo(JobState.COMPLETED);
		for (JobId id : List.of(pending, scheduled, dying.id(), completed)) {
			assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		}
		TransitionResult refused = this.jobs.admin().delete(this.queue, active.id());
		assertThat(refused.reason()).isEqualTo(StaleReason.ACTIVE);
		assertThat(row(active.id())).containsEntry("state", "active");
		assertThat(this.jobs.admin().delete(this.queue, pending).reason()).isEqualTo(StaleReason.NOT_FOUND);
		assertThat(this.redis.opsForHash().get(key(KeyType.METRICS), "deleted")).isEqualTo("4");
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
		assertThat(report.total()).isEqualTo(1);
	}

	@Test
	void deleteShouldLeaveARowThatNamesAnotherLocationAlone() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, id), "state", "dead");
		TransitionResult result = this.jobs.admin().delete(this.queue, id);
		assertThat(result.reason()).isEqualTo(StaleReason.WRONG_STATE);
		assertThat(this.redis.opsForZSet().score(key(KeyType.PENDING), id.toString())).isNotNull();
		assertThat(row(id)).containsEntry("payload", "x");
	}

	@Test
	void runNowShouldMoveAScheduledJobToPendingAtOnce() {
		JobId id = this.jobs.enqueues()
			.enqueue(this.queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofHours(1)));
		TransitionResult result = this.jobs.admin().runNow(this.queue, id);
		assertThat(result.isApplied()).isTrue();
		assertThat(result.state()).isEqualTo(JobState.PENDING);
		assertThat(this.redis.opsForZSet().score(key(KeyType.SCHEDULE), id.toString())).isNull();
		assertThat(row(id)).containsEntry("state", "pending")
			.containsEntry("run_at", Long.toString(result.at().toEpochMilli()));
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1)).extracting(ClaimedJob::id).containsExactly(id);
		assertThat(this.jobs.admin().runNow(this.queue, id).reason()).isEqualTo(StaleReason.NOT_SCHEDULED);
		JobId pending = this.jobs.enqueues().enqueue(this.queue, "now", EnqueueSpec.defaults());
		assertThat(this.jobs.admin().runNow(this.queue, pending).reason()).isEqualTo(StaleReason.NOT_SCHEDULED);
		assertThat(row(pending)).containsEntry("state", "pending");
	}

	private JobId completeOne(String payload) {
		JobId id = this.jobs.enqueues().enqueue(this.queue, payload, EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(job.id()).isEqualTo(id);
		assertThat(this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()).isTrue();
		return id;
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	private Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
	}

	private long serverTime() {
		return this.redis.execute(
				(org.springframework.data.redis.core.RedisCallback<Long>) (connection) -> connection.serverCommands()
					.time());
	}

	private void deadLettersKeptForever(int count) {
		this.jobs.upkeep().retain(this.queue, Retention.NONE, Retention.NONE);
		for (int i = 0; i < count; i++) {
			this.jobs.enqueues().enqueue(this.queue, "d" + i, EnqueueSpec.defaults());
			ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
			this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "boom");
		}
	}

}
