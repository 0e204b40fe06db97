package io.echomq.core;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Cancel in each state, on a real server: what moves, what the reply says, and that the
 * audit stays clean.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class CancelTests extends EngineTestSupport {

	@Test
	void cancelOfPendingJobRemovesItAndItsRow() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		JobId other = this.jobs.enqueues().enqueue(this.queue, "y", EnqueueSpec.defaults());
		CancelResult result = this.jobs.admin().cancel(this.queue, id);
		assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(result.state()).isEqualTo(JobState.PENDING);
		assertThat(result.isCancelled()).isTrue();
		assertGone(id);
		assertThat(members(KeyType.PENDING)).containsExactly(other.toString());
		assertThat(counter("cancelled")).isEqualTo("1");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 5)).extracting(ClaimedJob::id).containsExactly(other);
		assertAuditClean();
	}

	@Test
	void cancelOfScheduledJobRemovesItAndItsRow() {
		JobId id = this.jobs.enqueues()
			.enqueue(this.queue, "x", EnqueueSpec.defaults().withDelay(Duration.ofMinutes(5)));
		CancelResult result = this.jobs.admin().cancel(this.queue, id);
		assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(result.state()).isEqualTo(JobState.SCHEDULE);
		assertGone(id);
		assertThat(counter("cancelled")).isEqualTo("1");
		assertAuditClean();
	}

	@Test
	void cancelOfDeadJobRemovesItAndItsRow() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		this.jobs.outcomes().deadLetter(this.queue, job.id(), job.token(), "boom");
		CancelResult result = this.jobs.admin().cancel(this.queue, job.id());
		assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(result.state()).isEqualTo(JobState.DEAD);
		assertGone(job.id());
		assertAuditClean();
	}

	@Test
	void aBatchedCompletionRetiresACancelledJobAsCancelledAndCompletesTheOthers() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.jobs.enqueues().enqueue(this.queue, "y", EnqueueSpec.defaults());
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 2);
		this.jobs.admin().cancel(this.queue, claimed.get(0).id());
		List<TransitionResult> results = this.jobs.outcomes()
			.completeAll(this.queue, List.of(claimed.get(0).id(), claimed.get(1).id()),
					List.of(claimed.get(0).token(), claimed.get(1).token()));
		assertThat(results.get(0).reason()).isEqualTo(StaleReason.CANCELLED);
		assertThat(results.get(1).isApplied()).isTrue();
		assertGone(claimed.get(0).id());
		assertGone(claimed.get(1).id());
		assertThat(counter("cancelled")).isEqualTo("1");
		assertThat(counter("completed")).isEqualTo("1");
		assertAuditClean();
	}

	@Test
	void cancelOfActiveJobMarksItAndTheOutcomeRetiresItAsCancelled() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		CancelResult result = this.jobs.admin().cancel(this.queue, job.id());
		assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(result.state()).isEqualTo(JobState.ACTIVE);
		assertThat(result.requestedAt()).isNotNull();
		assertThat(members(KeyType.ACTIVE)).containsExactly(job.id().toString());
		assertThat(row(job.id())).containsEntry("state", "active").containsKey("cancel_requested_at");
		assertAuditClean();
		CancelResult again = this.jobs.admin().cancel(this.queue, job.id());
		assertThat(again.outcome()).isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(again.requestedAt()).isEqualTo(result.requestedAt());
		assertThat(counter("cancel_requested")).isEqualTo("1");
		TransitionResult renewal = this.jobs.outcomes().extend(this.queue, job.id(), job.token(), LEASE);
		assertThat(renewal.reason()).isEqualTo(StaleReason.CANCEL_REQUESTED);
		TransitionResult outcome = this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		assertThat(outcome.reason()).isEqualTo(StaleReason.CANCELLED);
		assertGone(job.id());
		assertThat(counter("cancelled")).isEqualTo("1");
		assertThat(counter("completed")).isNull();
		assertAuditClean();
	}

	@Test
	void aFailureOfACancelledJobIsDiscardedToo() {
		ClaimedJob job = claimedThenCancelled(LEASE);
		assertThat(this.jobs.outcomes().retry(this.queue, job.id(), job.token(), "e", Duration.ZERO).reason())
			.isEqualTo(StaleReason.CANCELLED);
		assertGone(job.id());
		assertThat(counter("retried")).isNull();
		assertAuditClean();
	}

	@Test
	void aReleaseOfACancelledJobRetiresIt() {
		ClaimedJob job = claimedThenCancelled(LEASE);
		assertThat(this.jobs.outcomes().release(this.queue, job.id(), job.token()).reason())
			.isEqualTo(StaleReason.CANCELLED);
		assertGone(job.id());
		assertAuditClean();
	}

	@Test
	void theReaperRetiresACancelledJobWhoseLeaseExpired() {
		ClaimedJob job = claimedThenCancelled(Duration.ofMillis(50));
		await().atMost(Duration.ofSeconds(5)).until(() -> {
			this.jobs.upkeep().reap(this.queue, 10);
			return !this.redis.hasKey(this.keyspace.jobKey(this.queue, job.id()));
		});
		assertGone(job.id());
		assertThat(counter("cancelled")).isEqualTo("1");
		assertThat(counter("reaped")).isNull();
		assertAuditClean();
	}

	@Test
	void cancelOfAFinishedOrUnknownJobSaysSoAndWritesNothing() {
		ClaimedJob job = enqueueAndClaim(LEASE);
		this.jobs.outcomes().complete(this.queue, job.id(), job.token());
		Map<Object, Object> metrics = this.redis.opsForHash().entries(key(KeyType.METRICS));
		CancelResult finished = this.jobs.admin().cancel(this.queue, job.id());
		assertThat(finished.outcome()).isEqualTo(CancelResult.Outcome.NOT_FOUND);
		assertThat(finished.isCancelled()).isFalse();
		assertThat(finished.state()).isNull();
		assertThat(this.jobs.admin().cancel(this.queue, JobId.mint()).outcome())
			.isEqualTo(CancelResult.Outcome.NOT_FOUND);
		assertThat(this.redis.opsForHash().entries(key(KeyType.METRICS))).isEqualTo(metrics);
		assertAuditClean();
	}

	@Test
	void cancelOfACancelledJobFindsNothing() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.jobs.admin().cancel(this.queue, id);
		assertThat(this.jobs.admin().cancel(this.queue, id).outcome()).isEqualTo(CancelResult.Outcome.NOT_FOUND);
	}

	@Test
	void cancelOfAMalformedRowIsRefusedAndChangesNothing() {
		JobId id = this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		this.redis.opsForHash().put(this.keyspace.jobKey(this.queue, id), "attempts", "many");
		CancelResult result = this.jobs.admin().cancel(this.queue, id);
		assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.REFUSED);
		assertThat(result.detail()).contains("attempts");
		assertThat(members(KeyType.PENDING)).containsExactly(id.toString());
		assertThat(row(id)).containsEntry("attempts", "many");
		JobId orphan = JobId.mint();
		this.redis.opsForZSet().add(key(KeyType.SCHEDULE), orphan.toString(), 1);
		assertThat(this.jobs.admin().cancel(this.queue, orphan).detail()).contains("no row");
		assertThat(members(KeyType.SCHEDULE)).containsExactly(orphan.toString());
	}

	@Test
	void cancelWithAMalformedIdFailsBeforeAnyWrite() {
		assertThatExceptionOfType(InvalidJobIdException.class)
			.isThrownBy(() -> this.jobs.admin().cancel(this.queue, JobId.parse("JOB123")))
			.withMessageContaining("JOB123");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.jobs.admin().cancel("bad{q}", JobId.mint()));
		assertThat(this.redis.hasKey(key(KeyType.METRICS))).isFalse();
	}

	@Test
	void cancelledJobsNeverRunAgainUnderConcurrentClaims() throws Exception {
		List<JobId> ids = this.jobs.enqueues()
			.enqueueAll(this.queue, java.util.Collections.nCopies(200, "x"), EnqueueSpec.defaults());
		Thread canceller = new Thread(() -> ids.forEach((id) -> this.jobs.admin().cancel(this.queue, id)));
		canceller.start();
		java.util.Set<JobId> ran = new java.util.HashSet<>();
		while (canceller.isAlive() || this.redis.opsForZSet().size(key(KeyType.PENDING)) > 0) {
			for (ClaimedJob job : this.jobs.claims().claim(this.queue, LEASE, 5)) {
				if (this.jobs.outcomes().complete(this.queue, job.id(), job.token()).isApplied()) {
					ran.add(job.id());
				}
			}
		}
		canceller.join();
		String counted = counter("cancelled");
		long cancelled = (counted != null) ? Long.parseLong(counted) : 0;
		assertThat(ran.size() + cancelled).isEqualTo(200);
		assertThat(this.redis.opsForZSet().size(key(KeyType.ACTIVE))).isZero();
		assertAuditClean();
	}

	private ClaimedJob claimedThenCancelled(Duration lease) {
		ClaimedJob job = enqueueAndClaim(lease);
		this.jobs.admin().cancel(this.queue, job.id());
		return job;
	}

	private void assertGone(JobId id) {
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, id))).isFalse();
		for (JobState state : JobState.values()) {
			assertThat(this.redis.opsForZSet().score(this.keyspace.locationKey(this.queue, state), id.toString()))
				.as(state.value())
				.isNull();
		}
	}

	private void assertAuditClean() {
		AuditReport report = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(report.violations()).isEmpty();
	}

	private java.util.Set<String> members(KeyType type) {
		return this.redis.opsForZSet().range(key(type), 0, -1);
	}

	private String counter(String name) {
		return (String) this.redis.opsForHash().get(key(KeyType.METRICS), name);
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(this.queue, type.suffix());
	}

	private Map<Object, Object> row(JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(this.queue, id));
	}

}
