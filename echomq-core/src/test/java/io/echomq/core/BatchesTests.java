package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Batches with callbacks and chains, on the flow mechanism: each callback enqueued
 * exactly once whatever the relay does twice, the ones that must never run retired, jobs
 * added until the batch is sealed, a chain's steps each reading the result before.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class BatchesTests extends FlowTestSupport {

	@Test
	void aBatchWhoseJobsAllCompleteShouldEnqueueSuccessAndCompleteOnceAndRetireDeath() {
		String other = this.queue + "-other";
		String callbacks = this.queue + "-callbacks";
		BatchJob batch = template().batch(BatchSpec.in(this.queue)
			.job(this.queue, "a")
			.job(other, "b")
			.onSuccess(FlowSpec.job(callbacks, "success"))
			.onComplete(FlowSpec.job(callbacks, "complete"))
			.onDeath(FlowSpec.job(callbacks, "death")));
		assertThat(status(batch)).extracting(BatchStatus::state, BatchStatus::total, BatchStatus::pending)
			.containsExactly("sealed", 2L, 2L);
		assertThat(row(callbacks, batch.onSuccess().id())).containsEntry("state", "waiting");
		complete(this.queue);
		complete(other);
		List<String> records = this.jobs.flows().outbox(other, 10);
		assertThat(records).hasSize(1);
		// two relays at once: the same record applied twice counts once
		assertThat(this.jobs.flows().apply(other, records.get(0))).isTrue();
		assertThat(this.jobs.flows().apply(other, records.get(0))).isFalse();
		this.jobs.flows().relay(this.queue, 10);
		this.jobs.flows().relay(other, 10);
		assertThat(status(batch)).extracting(BatchStatus::state, BatchStatus::pending, BatchStatus::completed)
			.containsExactly("finished", 0L, 2L);
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(this.queue).batches())).isZero();
		List<String> fired = this.jobs.flows().outbox(this.queue, 10);
		assertThat(fired).hasSize(3);
		for (String record : fired) {
			this.jobs.flows().apply(this.queue, record);
		}
		// a relay killed before removing the records applies them again: nothing changes
		assertThat(this.jobs.flows().relay(this.queue, 10)).isEqualTo(3);
		assertThat(this.jobs.claims().claim(callbacks, LEASE, 10)).extracting(ClaimedJob::id)
			.containsExactlyInAnyOrder(batch.onSuccess().id(), batch.onComplete().id());
		assertThat(this.redis.hasKey(this.keyspace.jobKey(callbacks, batch.onDeath().id()))).isFalse();
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(callbacks).waiting())).isZero();
		BatchStatus done = status(batch);
		assertThat(done.onSuccess().fired()).isEqualTo("completed");
		assertThat(done.onComplete().fired()).isEqualTo("completed");
		assertThat(done.onDeath().fired()).isEqualTo("skipped");
		assertClean(this.queue, other, callbacks);
	}

	@Test
	void aDeadJobShouldEnqueueDeathAtOnceAndCompleteOnceAndNeverSuccess() {
		String other = this.queue + "-other";
		BatchJob batch = template().batch(BatchSpec.in(this.queue)
			.job(other, "ok")
			.jobs(List.of(FlowSpec.job(other, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					FlowSpec.job(other, "dies too").options(EnqueueOptions.defaults().withMaxAttempts(1))))
			.onSuccess(FlowSpec.job(this.queue, "success"))
			.onComplete(FlowSpec.job(this.queue, "complete"))
			.onDeath(FlowSpec.job(this.queue, "death")));
		complete(other);
		die(other);
		this.jobs.flows().relay(other, 10);
		this.jobs.flows().relay(this.queue, 10);
		// the first death calls for the death callback before the batch has finished
		assertClaims(batch.onDeath().id());
		die(other);
		this.jobs.flows().relay(other, 10);
		this.jobs.flows().relay(this.queue, 10);
		assertClaims(batch.onComplete().id());
		assertThat(this.redis.hasKey(this.keyspace.jobKey(this.queue, batch.onSuccess().id()))).isFalse();
		BatchStatus done = status(batch);
		assertThat(done).extracting(BatchStatus::state, BatchStatus::completed, BatchStatus::dead)
			.containsExactly("finished", 1L, 2L);
		assertThat(done.onSuccess().fired()).isEqualTo("skipped");
		assertThat(done.onDeath().fired()).isEqualTo("completed");
		assertThat(this.jobs.flows().outbox(this.queue, 10)).isEmpty();
		assertClean(this.queue, other);
	}

	@Test
	void anOpenBatchShouldTakeJobsUntilItIsSealedAndNeverFinishBefore() {
		BatchJob batch = template().batch(
				BatchSpec.in(this.queue).job(this.queue, "first").onSuccess(FlowSpec.job(this.queue, "done")).open());
		complete(this.queue);
		this.jobs.flows().relay(this.queue, 10);
		assertThat(status(batch)).extracting(BatchStatus::state, BatchStatus::total, BatchStatus::completed)
			.containsExactly("open", 1L, 1L);
		assertThat(this.jobs.flows().outbox(this.queue, 10)).isEmpty();
		List<FlowJob> added = template().addToBatch(this.queue, batch.id(),
				List.of(FlowSpec.job(this.queue, "second")));
		assertThat(status(batch).pending()).isEqualTo(1);
		template().sealBatch(this.queue, batch.id());
		template().sealBatch(this.queue, batch.id());
		assertThatIllegalStateException()
			.isThrownBy(() -> template().addToBatch(this.queue, batch.id(), List.of(FlowSpec.job(this.queue, "late"))))
			.withMessageContaining("sealed");
		assertThat(status(batch).total()).isEqualTo(2);
		ClaimedJob second = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(second.id()).isEqualTo(added.get(0).id());
		assertThat(this.jobs.outcomes().complete(this.queue, second.id(), second.token()).isApplied()).isTrue();
		this.jobs.flows().relay(this.queue, 10);
		this.jobs.flows().relay(this.queue, 10);
		assertClaims(batch.onSuccess().id());
		// an open batch whose jobs have all finished finishes when it is sealed
		BatchJob empty = template().batch(BatchSpec.in(this.queue).onComplete(FlowSpec.job(this.queue, "c")).open());
		template().sealBatch(this.queue, empty.id());
		this.jobs.flows().relay(this.queue, 10);
		assertClaims(empty.onComplete().id());
		assertThatIllegalStateException().isThrownBy(() -> template().sealBatch(this.queue, JobId.mint()))
			.withMessageContaining("No batch");
		assertClean(this.queue);
	}

	@Test
	void aChainShouldRunEachStepAfterThePreviousAndGiveItThePreviousResult() {
		String second = this.queue + "-second";
		String third = this.queue + "-third";
		FlowJob chain = template()
			.chain(List.of(FlowSpec.job(this.queue, "1"), FlowSpec.job(second, "2"), FlowSpec.job(third, "3")));
		assertThat(chain.queue()).isEqualTo(third);
		assertThat(this.jobs.claims().claim(second, LEASE, 10)).isEmpty();
		int sum = 0;
		for (String queue : List.of(this.queue, second, third)) {
			this.jobs.flows().relay(this.queue, 10);
			this.jobs.flows().relay(second, 10);
			List<ClaimedJob> claimed = this.jobs.claims().claim(queue, LEASE, 10);
			assertThat(claimed).hasSize(1);
			ClaimedJob step = claimed.get(0);
			List<FlowChild> children = FlowChild.of(step.fields());
			if (!queue.equals(this.queue)) {
				assertThat(children).hasSize(1);
				sum = template().result(children.get(0).queue(), children.get(0).id(), Integer.class);
			}
			sum += Integer.parseInt(step.payload().replace("\"", ""));
			assertThat(this.jobs.outcomes()
				.complete(queue, step.id(), step.token(), null, Integer.toString(sum))
				.isApplied()).isTrue();
		}
		assertThat(template().result(third, chain.id(), Integer.class)).isEqualTo(6);
		assertThatIllegalArgumentException().isThrownBy(() -> template().chain(List.of(FlowSpec.job(this.queue, "1"))))
			.withMessageContaining("at least two steps");
	}

	@Test
	void aMalformedBatchShouldWriteNothing() {
		String callbacks = this.queue + "-callbacks";
		assertThatIllegalArgumentException().isThrownBy(() -> template().batch(BatchSpec.in(this.queue)))
			.withMessageContaining("at least one job");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template().batch(BatchSpec.in(this.queue)
				.job(this.queue, "a")
				.onSuccess(FlowSpec.job(callbacks, "s"))
				.onDeath(FlowSpec.job(callbacks, "d")
					.options(EnqueueOptions.defaults().withDelay(Duration.ofSeconds(1))))))
			.withMessageContaining("cannot have children, a delay");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template().batch(BatchSpec.in(this.queue)
				.job(this.queue, "a")
				.jobs(List.of(FlowSpec.job(this.queue, "p").child(FlowSpec.job(this.queue, "c"))))))
			.withMessageContaining("cannot have children");
		assertThatExceptionOfType(InvalidQueueNameException.class).isThrownBy(() -> template()
			.batch(BatchSpec.in(this.queue).job(this.queue, "a").onSuccess(FlowSpec.job("no spaces", "s"))));
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> template().batch(BatchSpec.in("no spaces").job(this.queue, "a")));
		assertThat(this.redis.hasKey(this.jobs.keys(this.queue).batches())).isFalse();
		assertThat(this.redis.hasKey(this.jobs.keys(this.queue).pending())).isFalse();
		assertThat(this.redis.hasKey(this.jobs.keys(callbacks).waiting())).isFalse();
	}

	@Test
	void theAuditAndTheViewShouldCheckBatchesAgainstTheirLocation() {
		String callbacks = this.queue + "-callbacks";
		BatchJob open = template()
			.batch(BatchSpec.in(this.queue).job(this.queue, "a").onComplete(FlowSpec.job(callbacks, "all")).open());
		BatchJob sealed = template()
			.batch(BatchSpec.in(this.queue).job(this.queue, "b").onDeath(FlowSpec.job(callbacks, "alert")));
		assertClean(this.queue);
		BatchView view = new BatchView(this.jobs);
		BatchView.Listing listing = view.list(this.queue);
		assertThat(listing.count()).isEqualTo(2);
		assertThat(listing.batches()).extracting(BatchView.Batch::id, BatchView.Batch::state)
			.containsExactly(tuple(open.id().toString(), "open"), tuple(sealed.id().toString(), "sealed"));
		BatchView.Batch read = view.read(this.queue, sealed.id());
		assertThat(read).isNotNull();
		assertThat(read.callbacks()).extracting(BatchView.Callback::kind, BatchView.Callback::ref)
			.containsExactly(tuple("death", callbacks + "/" + sealed.onDeath().id()));
		assertThat(view.read(this.queue, JobId.mint())).isNull();
		assertThat(new QueueInspector(this.jobs).stats(this.queue).batches()).isEqualTo(2);
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		EchoMqQueueMetrics metrics = new EchoMqQueueMetrics(new QueueInspector(this.jobs),
				new EchoMqQueueCatalog(Set::of, Set.of(this.queue)), null, Duration.ofMinutes(1));
		metrics.bindTo(registry);
		metrics.sample();
		assertThat(registry.get("echomq.queue.batches").tag("queue", this.queue).gauge().value()).isEqualTo(2.0);

		String location = this.jobs.keys(this.queue).batches();
		JobId ghost = JobId.mint();
		this.redis.opsForZSet().remove(location, open.id().toString());
		this.redis.opsForZSet().add(location, ghost.toString(), 1);
		this.redis.opsForHash().put(this.jobs.keys(this.queue).batch(sealed.id().toString()), "total", "many");
		this.redis.opsForValue().set(this.jobs.keys(this.queue).batch(JobId.mint().toString()), "x");
		assertThat(new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5)).violations())
			.satisfiesExactlyInAnyOrder(
					(finding) -> assertThat(finding).contains(ghost.toString()).endsWith("has no row"),
					(finding) -> assertThat(finding).contains(open.id().toString())
						.endsWith("is open but not in " + location),
					(finding) -> assertThat(finding).contains("field 'total' is 'many', not an integer"),
					(finding) -> assertThat(finding).endsWith("is a string, not a hash"));
		assertThat(view.list(this.queue).batches()).extracting(BatchView.Batch::state)
			.containsExactly("missing", "sealed");
	}

	private BatchStatus status(BatchJob batch) {
		BatchStatus status = template().batchStatus(batch.queue(), batch.id());
		assertThat(status).isNotNull();
		return status;
	}

}
