package io.echomq.core;

import java.util.Map;

import io.echomq.EchoMqAdmin;
import io.echomq.core.internal.KeyType;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowSpec;
import io.echomq.inspect.QueueInspector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A flow or batch written in part (a write refused half-way, as during a failover): the
 * exception names every job written with its queue and the batch left open, and one call
 * removes them all, leaving no job, no waiting parent and no open batch behind.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class PartialWritesTests extends FlowTestSupport {

	@Test
	void aFlowWrittenInPartNamesItsJobsWithTheirQueuesAndIsDiscardedInOneCall() {
		String children = this.queue + "-children";
		String broken = breakQueue(this.queue + "-broken");
		PartialEnqueueException partial = catchThrowableOfType(PartialEnqueueException.class,
				() -> template().flow(FlowSpec.job(this.queue, "parent")
					.child(FlowSpec.job(children, "written"))
					.child(FlowSpec.job(broken, "refused"))));

		assertThat(partial.getWrittenJobs()).extracting(JobRef::queue).containsExactly(this.queue, children);
		assertThat(partial.getMessage()).contains(partial.getWrittenJobs().get(1).toString())
			.contains("EchoMqAdmin.discard");
		JobRef parent = partial.getWrittenJobs().get(0);
		assertThat(row(this.queue, parent.id())).containsEntry("state", "waiting");

		healQueue(broken);
		assertThat(new EchoMqAdmin(this.jobs).discard(partial)).isEqualTo(2);
		relay(children, this.queue);

		for (JobRef job : partial.getWrittenJobs()) {
			assertThat(row(job.queue(), job.id())).as(job.toString()).isEmpty();
		}
		assertNothingLeft(this.queue, children);
	}

	@Test
	void aBatchWrittenInPartIsDiscardedItsOpenRowSealedAndItsCallbacksRetired() {
		String callbacks = this.queue + "-callbacks";
		String broken = breakQueue(this.queue + "-broken");
		PartialEnqueueException partial = catchThrowableOfType(PartialEnqueueException.class,
				() -> template().batch(BatchSpec.in(this.queue)
					.job(this.queue, "written")
					.job(broken, "refused")
					.onSuccess(FlowSpec.job(callbacks, "success"))
					.onDeath(FlowSpec.job(callbacks, "death"))));

		assertThat(partial.getWrittenJobs()).extracting(JobRef::queue)
			.containsExactly(callbacks, callbacks, this.queue);
		JobRef batch = partial.getOpenBatch();
		assertThat(batch).isNotNull();
		assertThat(template().batchStatus(batch.queue(), batch.id()).state()).isEqualTo("open");

		healQueue(broken);
		assertThat(new EchoMqAdmin(this.jobs).discard(partial)).isEqualTo(3);
		relay(this.queue, callbacks);

		BatchStatus status = template().batchStatus(batch.queue(), batch.id());
		assertThat(status.state()).as(status.toString()).isEqualTo("finished");
		for (JobRef job : partial.getWrittenJobs()) {
			assertThat(row(job.queue(), job.id())).as(job.toString()).isEmpty();
		}
		assertNothingLeft(this.queue, callbacks);
	}

	@Test
	void aBatchWhoseCallbacksWereWrittenInPartIsDiscardedWithoutABatchRow() {
		String callbacks = this.queue + "-callbacks";
		String broken = breakQueue(this.queue + "-broken");
		PartialEnqueueException partial = catchThrowableOfType(PartialEnqueueException.class,
				() -> template().batch(BatchSpec.in(this.queue)
					.job(this.queue, "never written")
					.onSuccess(FlowSpec.job(callbacks, "success"))
					.onComplete(FlowSpec.job(broken, "refused"))));

		assertThat(partial.getWrittenJobs()).extracting(JobRef::queue).containsExactly(callbacks);
		assertThat(partial.getOpenBatch()).isNull();

		healQueue(broken);
		assertThat(new EchoMqAdmin(this.jobs).discard(partial)).isOne();

		assertThat(row(callbacks, partial.getWrittenJobs().get(0).id())).isEmpty();
		assertNothingLeft(this.queue, callbacks);
	}

	/**
	 * Make every write to a queue fail: its pending and waiting locations are strings.
	 */
	private String breakQueue(String queue) {
		this.redis.opsForValue().set(this.keyspace.queueKey(queue, KeyType.PENDING.suffix()), "not a sorted set");
		this.redis.opsForValue().set(this.keyspace.queueKey(queue, KeyType.WAITING.suffix()), "not a sorted set");
		return queue;
	}

	/** The failure was transient: the queue takes writes again. */
	private void healQueue(String queue) {
		this.redis.delete(this.keyspace.queueKey(queue, KeyType.PENDING.suffix()));
		this.redis.delete(this.keyspace.queueKey(queue, KeyType.WAITING.suffix()));
	}

	private void assertNothingLeft(String... queues) {
		QueueInspector inspector = new QueueInspector(this.jobs);
		for (String queue : queues) {
			Map<JobState, Long> counts = new java.util.EnumMap<>(JobState.class);
			for (JobState state : JobState.values()) {
				counts.put(state, inspector.stats(queue).count(state));
			}
			assertThat(counts.values()).as(queue + ": " + counts).allMatch((count) -> count == 0);
		}
		assertClean(queues);
	}

}
