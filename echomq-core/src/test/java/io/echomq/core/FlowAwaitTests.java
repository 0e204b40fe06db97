package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.KeyType;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Awaiting the jobs of flows, chains and batches: every way a parent, a chain's step and
 * a batch's callback can end settles an await started before it, promptly and with the
 * outcome an await started after it reads (the script or relay step that ends the job
 * publishes it, {@code includes/notify.lua}). Each await's own timeout is far beyond the
 * time it is given to settle, so a missing notification fails the test.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowAwaitTests extends FlowTestSupport {

	/** The await's own timeout: never reached by a test that passes. */
	private static final Duration AWAIT = Duration.ofSeconds(60);

	/** How soon an ended job's await must settle. */
	private static final Duration PROMPTLY = Duration.ofSeconds(3);

	@AfterEach
	void closeWaiters() {
		this.jobs.close();
	}

	@Test
	void aParentShouldSettleWhenItCompletesOrDiesAfterItsChildren() {
		String other = this.queue + "-other";
		String ignored = this.queue + "-ignored";
		FlowJob completes = template()
			.flow(FlowSpec.job(this.queue, "completes").child(FlowSpec.job(this.queue, "local")));
		FlowJob dies = template().flow(FlowSpec.job(this.queue, "dies").child(FlowSpec.job(other, "remote")));
		FlowJob ignores = template().flow(FlowSpec.job(this.queue, "ignores")
			.child(FlowSpec.job(ignored, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					ChildFailure.IGNORE));
		CompletableFuture<String> whenCompleted = awaiting(this.queue, completes.id());
		CompletableFuture<String> whenDead = awaiting(this.queue, dies.id());
		CompletableFuture<String> whenIgnored = awaiting(this.queue, ignores.id());
		complete(this.queue);
		complete(other);
		die(ignored);
		relay(other, ignored);
		assertThat(whenCompleted).isNotDone();
		for (ClaimedJob parent : this.jobs.claims().claim(this.queue, LEASE, 10)) {
			if (parent.id().equals(dies.id())) {
				this.jobs.outcomes().deadLetter(this.queue, parent.id(), parent.token(), "no");
			}
			else {
				assertThat(this.jobs.outcomes()
					.complete(this.queue, parent.id(), parent.token(), null, "\"" + parent.id() + "\"")
					.isApplied()).isTrue();
			}
		}
		assertThat(whenCompleted).succeedsWithin(PROMPTLY).isEqualTo(completes.id().toString());
		assertThat(whenIgnored).succeedsWithin(PROMPTLY).isEqualTo(ignores.id().toString());
		assertFailed(whenDead, "no");
		assertNoWaiters(this.queue, other, ignored);
	}

	@Test
	void aParentShouldSettleWhenALocalChildsDeathDeadLettersIt() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		CompletableFuture<String> parent = awaiting(this.queue, flow.id());
		die(this.queue);
		assertFailed(parent, "child " + this.queue + "/" + flow.children().get(0).id() + " is dead");
		assertNoWaiters(this.queue);
	}

	@Test
	void aParentShouldSettleWhenTheRelayCarriesAChildsDeath() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(other, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		CompletableFuture<String> parent = awaiting(this.queue, flow.id());
		die(other);
		relay(other);
		assertFailed(parent, "child " + other + "/" + flow.children().get(0).id() + " is dead");
		assertNoWaiters(this.queue, other);
	}

	@Test
	void aParentShouldSettleWhenAChildIsCancelledDeletedOrReaped() {
		String other = this.queue + "-other";
		FlowJob waitingChild = template()
			.flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(other, "cancelled")));
		FlowJob deletedChild = template()
			.flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(this.queue, "deleted")));
		FlowJob reapedChild = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(other, "reaped").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		CompletableFuture<String> cancelled = awaiting(this.queue, waitingChild.id());
		CompletableFuture<String> deleted = awaiting(this.queue, deletedChild.id());
		CompletableFuture<String> reaped = awaiting(this.queue, reapedChild.id());
		JobId cancelledId = waitingChild.children().get(0).id();
		JobId reapedId = reapedChild.children().get(0).id();
		assertThat(this.jobs.admin().cancel(other, cancelledId).outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.jobs.admin().delete(this.queue, deletedChild.children().get(0).id()).isApplied()).isTrue();
		List<ClaimedJob> claimed = this.jobs.claims().claim(other, Duration.ofMillis(50), 1);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(reapedId);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.jobs.upkeep().reap(other, 10).dead() == 1);
		relay(this.queue, other);
		assertFailed(cancelled, "child " + other + "/" + cancelledId + " was cancelled");
		assertFailed(deleted, "child " + this.queue + "/" + deletedChild.children().get(0).id() + " was deleted");
		assertFailed(reaped, "child " + other + "/" + reapedId + " is dead");
		assertNoWaiters(this.queue, other);
	}

	@Test
	void aParentShouldSettleWhenARunningLocalChildIsRetiredAsCancelled() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(this.queue, "runs")));
		CompletableFuture<String> parent = awaiting(this.queue, flow.id());
		ClaimedJob child = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		assertThat(this.jobs.admin().cancel(this.queue, child.id()).outcome())
			.isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(this.jobs.outcomes().complete(this.queue, child.id(), child.token()).isApplied()).isFalse();
		assertFailed(parent, "child " + this.queue + "/" + child.id() + " was cancelled");
		assertNoWaiters(this.queue);
	}

	@Test
	void aWaitingParentCancelledOrDeletedShouldSettle() {
		String other = this.queue + "-other";
		FlowJob cancelled = template().flow(FlowSpec.job(this.queue, "cancelled").child(FlowSpec.job(other, "a")));
		FlowJob deleted = template().flow(FlowSpec.job(this.queue, "deleted").child(FlowSpec.job(other, "b")));
		CompletableFuture<String> whenCancelled = awaiting(this.queue, cancelled.id());
		CompletableFuture<String> whenDeleted = awaiting(this.queue, deleted.id());
		CompletableFuture<String> child = awaiting(other, cancelled.children().get(0).id());
		assertThat(this.jobs.admin().cancel(this.queue, cancelled.id()).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.jobs.admin().delete(this.queue, deleted.id()).isApplied()).isTrue();
		relay(this.queue, other);
		assertThat(whenCancelled).failsWithin(PROMPTLY)
			.withThrowableThat()
			.withCauseInstanceOf(JobCancelledException.class);
		assertThat(whenDeleted).failsWithin(PROMPTLY)
			.withThrowableThat()
			.withCauseInstanceOf(JobNotFoundException.class);
		assertThat(child).failsWithin(PROMPTLY).withThrowableThat().withCauseInstanceOf(JobCancelledException.class);
		assertNoWaiters(this.queue, other);
	}

	@Test
	void aChainsStepsShouldSettleWhenTheLastCompletesOrAnEarlierOneDies() {
		String second = this.queue + "-second";
		String third = this.queue + "-third";
		FlowJob runs = template()
			.chain(List.of(FlowSpec.job(this.queue, "1"), FlowSpec.job(second, "2"), FlowSpec.job(third, "3")));
		CompletableFuture<String> last = awaiting(third, runs.id());
		FlowJob step2 = runs.children().get(0);
		completeWith(this.queue, step2.children().get(0).id(), "\"1\"");
		relay(this.queue);
		completeWith(second, step2.id(), "\"2\"");
		relay(second);
		assertThat(last).isNotDone();
		completeWith(third, runs.id(), "\"" + third + "\"");
		assertThat(last).succeedsWithin(PROMPTLY).isEqualTo(third);

		FlowJob middleDies = template().chain(List.of(FlowSpec.job(this.queue, "1"),
				FlowSpec.job(second, "2").options(EnqueueOptions.defaults().withMaxAttempts(1)),
				FlowSpec.job(third, "3")));
		CompletableFuture<String> afterMiddle = awaiting(third, middleDies.id());
		complete(this.queue);
		relay(this.queue);
		die(second);
		relay(second);
		assertFailed(afterMiddle, "child " + second + "/" + middleDies.children().get(0).id() + " is dead");

		FlowJob firstDies = template()
			.chain(List.of(FlowSpec.job(this.queue, "1").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					FlowSpec.job(second, "2"), FlowSpec.job(third, "3")));
		FlowJob middle = firstDies.children().get(0);
		CompletableFuture<String> middleStep = awaiting(second, middle.id());
		CompletableFuture<String> lastStep = awaiting(third, firstDies.id());
		die(this.queue);
		relay(this.queue, second);
		assertFailed(middleStep, "child " + this.queue + "/" + middle.children().get(0).id() + " is dead");
		assertFailed(lastStep, "child " + second + "/" + middle.id() + " is dead");
		assertNoWaiters(this.queue, second, third);
	}

	@Test
	void aBatchsCallbacksShouldSettleWhenTheyRunOrAreSkipped() {
		String callbacks = this.queue + "-callbacks";
		BatchJob succeeds = template().batch(BatchSpec.in(this.queue)
			.job(this.queue, "a")
			.onSuccess(FlowSpec.job(callbacks, "success"))
			.onComplete(FlowSpec.job(callbacks, "complete"))
			.onDeath(FlowSpec.job(callbacks, "death")));
		CompletableFuture<String> success = awaiting(callbacks, succeeds.onSuccess().id());
		CompletableFuture<String> complete = awaiting(callbacks, succeeds.onComplete().id());
		CompletableFuture<String> deathSkipped = awaiting(callbacks, succeeds.onDeath().id());
		complete(this.queue);
		relay(this.queue);
		assertSkipped(deathSkipped);
		for (ClaimedJob callback : this.jobs.claims().claim(callbacks, LEASE, 10)) {
			assertThat(this.jobs.outcomes()
				.complete(callbacks, callback.id(), callback.token(), null, "\"" + callback.id() + "\"")
				.isApplied()).isTrue();
		}
		assertThat(success).succeedsWithin(PROMPTLY).isEqualTo(succeeds.onSuccess().id().toString());
		assertThat(complete).succeedsWithin(PROMPTLY).isEqualTo(succeeds.onComplete().id().toString());

		BatchJob dies = template().batch(BatchSpec.in(this.queue)
			.jobs(List.of(FlowSpec.job(this.queue, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1))))
			.onSuccess(FlowSpec.job(callbacks, "success"))
			.onDeath(FlowSpec.job(callbacks, "death")));
		CompletableFuture<String> successSkipped = awaiting(callbacks, dies.onSuccess().id());
		CompletableFuture<String> death = awaiting(callbacks, dies.onDeath().id());
		die(this.queue);
		relay(this.queue);
		assertSkipped(successSkipped);
		ClaimedJob deathCallback = this.jobs.claims().claim(callbacks, LEASE, 1).get(0);
		assertThat(deathCallback.id()).isEqualTo(dies.onDeath().id());
		this.jobs.outcomes().deadLetter(callbacks, deathCallback.id(), deathCallback.token(), "alert failed");
		assertFailed(death, "alert failed");

		BatchJob cancelled = template()
			.batch(BatchSpec.in(this.queue).job(this.queue, "a").onComplete(FlowSpec.job(callbacks, "complete")));
		CompletableFuture<String> whenCancelled = awaiting(callbacks, cancelled.onComplete().id());
		assertThat(this.jobs.admin().cancel(callbacks, cancelled.onComplete().id()).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(whenCancelled).failsWithin(PROMPTLY)
			.withThrowableThat()
			.withCauseInstanceOf(JobCancelledException.class);
		assertNoWaiters(this.queue, callbacks);
	}

	private CompletableFuture<String> awaiting(String queue, JobId id) {
		CompletableFuture<String> future = template().resultOf(queue, id, String.class, AWAIT);
		assertThat(future).isNotDone();
		return future;
	}

	private void completeWith(String queue, JobId id, String result) {
		ClaimedJob job = this.jobs.claims().claim(queue, LEASE, 1).get(0);
		assertThat(job.id()).isEqualTo(id);
		assertThat(this.jobs.outcomes().complete(queue, job.id(), job.token(), null, result).isApplied()).isTrue();
	}

	private void assertFailed(CompletableFuture<String> future, String lastError) {
		assertThat(future).failsWithin(PROMPTLY)
			.withThrowableThat()
			.havingCause()
			.isInstanceOfSatisfying(JobFailedException.class,
					(ex) -> assertThat(ex.getLastError()).isEqualTo(lastError));
	}

	private void assertSkipped(CompletableFuture<String> future) {
		assertThat(future).failsWithin(PROMPTLY)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(JobNotFoundException.class)
			.withMessageContaining("skipped");
	}

	private void assertNoWaiters(String... queues) {
		for (String queue : queues) {
			assertThat(this.redis.opsForZSet().size(this.keyspace.queueKey(queue, KeyType.WAITERS.suffix()))).as(queue)
				.isZero();
		}
	}

}
