package io.echomq.core;

import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.FencingToken;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child of a flow, or a job of a batch, finished by a caller that knows its parent from
 * the claimed row ({@link JobAttempt#flowParent()}), as the listener does: one script
 * call with the parent's keys declared, where a caller that does not know sends
 * {@code complete_all}, then {@code complete} twice (asked for the keys), or a
 * dead-letter twice.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowKeysTests extends FlowTestSupport {

	@BeforeEach
	void loadScripts() {
		// a pipelined call that meets NOSCRIPT is sent again alone: load the scripts, so
		// that the counts are exact
		JobId none = JobId.mint();
		this.jobs.outcomes()
			.completeAll(this.queue, List.of(none, JobId.mint()), List.of(FencingToken.of(1), FencingToken.of(1)));
		this.jobs.outcomes().complete(this.queue, none, FencingToken.of(1));
		this.jobs.outcomes().deadLetter(this.queue, none, FencingToken.of(1), "none");
	}

	@Test
	void aChildWhoseParentIsInItsQueueShouldCompleteInOneScriptCall() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "a"))
			.child(FlowSpec.job(this.queue, "b")));
		List<ClaimedJob> children = this.jobs.claims().claim(this.queue, LEASE, 10);
		assertThat(children).extracting(ClaimedJob::flowParent).containsOnly(flow.id().toString());
		// not known: complete_all leaves the child to complete, which asks for the keys
		ClaimedJob unknown = children.get(0);
		assertThat(counted(() -> completeAll(this.queue, unknown, null))).isEqualTo(new Counted<>(null, 1));
		assertThat(counted(() -> this.jobs.outcomes().complete(this.queue, unknown.id(), unknown.token()).isApplied()))
			.isEqualTo(new Counted<>(true, 2));
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting").containsEntry("children_left", "1");
		ClaimedJob known = children.get(1);
		assertThat(counted(() -> completeAll(this.queue, known, known.flowParent()).isApplied()))
			.isEqualTo(new Counted<>(true, 1));
		assertThat(row(this.queue, flow.id())).containsEntry("state", "pending").containsEntry("children_left", "0");
		assertClaims(flow.id());
		assertClean(this.queue);
	}

	@Test
	void aChildWhoseParentIsInAnotherQueueShouldCompleteInOneScriptCall() {
		String children = this.queue + "-children";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(children, "a"))
			.child(FlowSpec.job(children, "b")));
		List<ClaimedJob> claimed = this.jobs.claims().claim(children, LEASE, 10);
		assertThat(claimed).extracting(ClaimedJob::flowParent).containsOnly("");
		for (ClaimedJob child : claimed) {
			assertThat(counted(() -> this.jobs.outcomes()
				.complete(children, child.id(), child.token(), null, child.flowParent(), null)
				.isApplied())).isEqualTo(new Counted<>(true, 1));
		}
		assertThat(this.jobs.flows().outbox(children, 10)).hasSize(2);
		relay(children);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "pending").containsEntry("children_left", "0");
		assertClaims(flow.id());
		assertClean(this.queue, children);
	}

	@Test
	void aJobOfABatchShouldCompleteInOneScriptCall() {
		String callbacks = this.queue + "-callbacks";
		BatchJob batch = template()
			.batch(BatchSpec.in(this.queue).job(this.queue, "a").onSuccess(FlowSpec.job(callbacks, "success")));
		ClaimedJob job = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(job.flowParent()).isEmpty();
		assertThat(counted(() -> completeAll(this.queue, job, job.flowParent()).isApplied()))
			.isEqualTo(new Counted<>(true, 1));
		relay(this.queue, callbacks);
		assertThat(this.jobs.claims().claim(callbacks, LEASE, 10)).extracting(ClaimedJob::id)
			.containsExactly(batch.onSuccess().id());
		assertClean(this.queue, callbacks);
	}

	@Test
	void aChildThatDiesShouldBeDeadLetteredInOneScriptCall() {
		FlowJob unknown = template().flow(FlowSpec.job(this.queue, "one").child(FlowSpec.job(this.queue, "a")));
		ClaimedJob first = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(
				counted(() -> this.jobs.outcomes().deadLetter(this.queue, first.id(), first.token(), "boom").state()))
			.isEqualTo(new Counted<>(JobState.DEAD, 2));
		assertThat(row(this.queue, unknown.id())).containsEntry("state", "dead");
		FlowJob known = template().flow(FlowSpec.job(this.queue, "two").child(FlowSpec.job(this.queue, "b")));
		ClaimedJob second = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(second.flowParent()).isEqualTo(known.id().toString());
		assertThat(counted(() -> this.jobs.outcomes()
			.deadLetter(this.queue, second.id(), second.token(), "boom", second.flowParent())
			.state())).isEqualTo(new Counted<>(JobState.DEAD, 1));
		assertThat(row(this.queue, known.id())).containsEntry("state", "dead");
		assertClean(this.queue);
	}

	@Test
	void aJobWithoutAParentShouldHaveNone() {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 1).get(0).flowParent()).isNull();
	}

	private @Nullable TransitionResult completeAll(String queue, ClaimedJob job, @Nullable String flowParent) {
		List<@Nullable String> none = Collections.singletonList(null);
		return this.jobs.outcomes()
			.completeAll(queue, List.of(job.id()), List.of(job.token()), none, Collections.singletonList(flowParent),
					none)
			.get(0);
	}

	/** What the work returned, and how many script calls it made. */
	private <T> Counted<T> counted(Supplier<T> work) {
		long before = this.jobs.executor().getCalls();
		T value = work.get();
		return new Counted<>(value, this.jobs.executor().getCalls() - before);
	}

	record Counted<T>(@Nullable T value, long calls) {

	}

}
