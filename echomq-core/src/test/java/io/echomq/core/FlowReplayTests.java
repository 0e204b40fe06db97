package io.echomq.core;

import java.util.List;
import java.util.Map;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.KeyType;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replaying a dead child re-opens its flow: a parent dead by the child waits again, a
 * parent still waiting waits for the child again, a parent already run is left as it is;
 * a record of an older round changes nothing.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowReplayTests extends FlowTestSupport {

	@Test
	void aReplayedChildShouldReopenItsDeadParentWhichRunsOnceWithTheNewResult() {
		String other = this.queue + "-other";
		FlowJob remote = template().flow(FlowSpec.job(this.queue, "remote")
			.child(FlowSpec.job(other, "dies"))
			.child(FlowSpec.job(this.queue, "sibling")));
		JobId child = remote.children().get(0).id();
		kill(other, child);
		relayOnce(other);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "dead");
		// a sibling finishing while its parent is dead is still counted
		complete(this.queue, remote.children().get(1).id(), null);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "dead").containsEntry("children_left", "1");
		String oldDeath = "dead " + this.queue + " " + remote.id() + " " + child;
		assertThat(this.jobs.admin().replay(other, child, 1).isApplied()).isTrue();
		relayOnce(other);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "waiting")
			.containsEntry("children_left", "1")
			.doesNotContainKeys("child:" + other + "/" + child, "last_error", "dead_at");
		// the old round's record, applied late or again, changes nothing
		assertThat(this.jobs.flows().apply(other, oldDeath)).isFalse();
		assertThat(row(this.queue, remote.id())).containsEntry("state", "waiting");
		complete(other, child, "\"second\"");
		relayOnce(other);
		assertThat(this.jobs.flows().apply(other, "completed " + this.queue + " " + remote.id() + " " + child + " 1"))
			.isFalse();
		assertThat(this.jobs.flows().apply(other, oldDeath)).isFalse();
		assertThat(this.jobs.flows().apply(other, "reopen " + this.queue + " " + remote.id() + " " + child + " 1"))
			.isFalse();
		List<ClaimedJob> run = this.jobs.claims().claim(this.queue, LEASE, 10);
		assertThat(run).extracting(ClaimedJob::id).containsExactly(remote.id());
		assertThat(FlowChild.of(run.get(0).fields())).extracting(FlowChild::outcome)
			.containsExactly("completed", "completed");
		assertThat(template().result(other, child, String.class)).isEqualTo("second");
		assertClean(this.queue, other);
	}

	@Test
	void aReplayedLocalChildCompletingBeforeTheRelayShouldReopenAndReleaseItsParent() {
		String other = this.queue + "-other";
		FlowJob local = template().flow(FlowSpec.job(this.queue, "local")
			.child(FlowSpec.job(this.queue, "dies"))
			.child(FlowSpec.job(other, "sibling")));
		JobId child = local.children().get(0).id();
		kill(this.queue, child);
		assertThat(row(this.queue, local.id())).containsEntry("state", "dead");
		complete(other, local.children().get(1).id(), null);
		relayOnce(other);
		assertThat(this.jobs.admin().replay(this.queue, child, 1).isApplied()).isTrue();
		assertThat(row(this.queue, child)).containsEntry("flow_round", "1");
		// the child's new outcome comes first: it re-opens the parent and is counted
		complete(this.queue, child, null);
		assertThat(row(this.queue, local.id())).containsEntry("state", "pending")
			.containsEntry("child:" + this.queue + "/" + child, "completed")
			.containsEntry("round:" + this.queue + "/" + child, "1");
		relayOnce(this.queue);
		assertThat(this.jobs.flows().outbox(this.queue, 10)).isEmpty();
		List<ClaimedJob> run = this.jobs.claims().claim(this.queue, LEASE, 10);
		assertThat(run).extracting(ClaimedJob::id).containsExactly(local.id());
		assertClean(this.queue, other);
	}

	@Test
	void aParentDeadByTwoChildrenShouldWaitAgainOnlyOnceBothAreReplayed() {
		String other = this.queue + "-other";
		FlowJob flow = template()
			.flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(other, "a")).child(FlowSpec.job(other, "b")));
		JobId a = flow.children().get(0).id();
		JobId b = flow.children().get(1).id();
		kill(other, a);
		kill(other, b);
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "dead")
			.containsEntry("last_error", "child " + other + "/" + a + " is dead");
		assertThat(this.jobs.admin().replay(other, a, 1).isApplied()).isTrue();
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "dead")
			.containsEntry("last_error", "child " + other + "/" + b + " is dead")
			.doesNotContainKey("child:" + other + "/" + a);
		assertThat(this.jobs.admin().replay(other, b, 1).isApplied()).isTrue();
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting").containsEntry("children_left", "2");
		complete(other, a, null);
		complete(other, b, null);
		relayOnce(other);
		assertClaims(flow.id());
		assertClean(this.queue, other);
	}

	@Test
	void aReplayedLeafShouldReopenItsParentSoTheWholeTreeRuns() {
		String middle = this.queue + "-middle";
		String leaf = this.queue + "-leaf";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "root")
			.child(FlowSpec.job(middle, "middle").child(FlowSpec.job(leaf, "dies"))));
		JobId parent = flow.children().get(0).id();
		JobId child = flow.children().get(0).children().get(0).id();
		kill(leaf, child);
		relayOnce(leaf, middle);
		assertThat(row(middle, parent)).containsEntry("state", "dead");
		assertThat(row(this.queue, flow.id())).containsEntry("state", "dead");
		assertThat(this.jobs.admin().replay(leaf, child, 1).isApplied()).isTrue();
		relayOnce(leaf, middle);
		// the middle parent waits again, and so does the root it had dead-lettered
		assertThat(row(middle, parent)).containsEntry("state", "waiting").containsEntry("flow_round", "1");
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting")
			.doesNotContainKeys("child:" + middle + "/" + parent, "last_error");
		complete(leaf, child, null);
		relayOnce(leaf);
		complete(middle, parent, null);
		relayOnce(middle);
		assertClaims(flow.id());
		assertClean(this.queue, middle, leaf);
	}

	@Test
	void aParentDeadByItsChildShouldSettleItsOwnParentOnEveryLevel() {
		String middle = this.queue + "-middle";
		String leaf = this.queue + "-leaf";
		// across slots (three queues), then on one slot (one queue)
		FlowJob across = template().flow(FlowSpec.job(this.queue, "root")
			.child(FlowSpec.job(middle, "middle").child(FlowSpec.job(leaf, "dies")).child(FlowSpec.job(leaf, "late")))
			.child(FlowSpec.job(middle, "sibling")));
		FlowJob local = template().flow(FlowSpec.job(this.queue, "root")
			.child(FlowSpec.job(this.queue, "middle").child(FlowSpec.job(this.queue, "dies"))));
		FlowJob acrossMiddle = across.children().get(0);
		kill(leaf, acrossMiddle.children().get(0).id());
		relayOnce(leaf, middle);
		assertThat(row(middle, acrossMiddle.id())).containsEntry("state", "dead");
		assertThat(row(this.queue, across.id())).containsEntry("state", "dead")
			.containsEntry("last_error", "child " + middle + "/" + acrossMiddle.id() + " is dead")
			.containsEntry("child:" + middle + "/" + acrossMiddle.id(), "dead");
		// the other leaf finishing later, and the death applied again, change nothing
		// above
		complete(leaf, acrossMiddle.children().get(1).id(), null);
		relayOnce(leaf, middle);
		assertThat(this.jobs.flows().apply(middle, "dead " + this.queue + " " + across.id() + " " + acrossMiddle.id()))
			.isFalse();
		FlowJob localMiddle = local.children().get(0);
		kill(this.queue, localMiddle.children().get(0).id());
		relayOnce(this.queue);
		assertThat(row(this.queue, localMiddle.id())).containsEntry("state", "dead");
		assertThat(row(this.queue, local.id())).containsEntry("state", "dead")
			.containsEntry("last_error", "child " + this.queue + "/" + localMiddle.id() + " is dead");
		for (String queue : List.of(this.queue, middle, leaf)) {
			assertThat(this.redis.opsForZSet().size(this.keyspace.queueKey(queue, KeyType.WAITING.suffix()))).isZero();
			assertThat(this.jobs.flows().outbox(queue, 10)).isEmpty();
			assertClean(queue);
		}
	}

	@Test
	void aReplayedChildUnderIgnoreOrRemoveShouldBeWaitedForAgain() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(other, "ignored"), ChildFailure.IGNORE)
			.child(FlowSpec.job(other, "removed"), ChildFailure.REMOVE)
			.child(FlowSpec.job(this.queue, "last")));
		JobId ignored = flow.children().get(0).id();
		JobId removed = flow.children().get(1).id();
		kill(other, ignored);
		kill(other, removed);
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting").containsEntry("children_left", "1");
		assertThat(this.jobs.admin().replay(other, ignored, 1).isApplied()).isTrue();
		assertThat(this.jobs.admin().replay(other, removed, 1).isApplied()).isTrue();
		relayOnce(other);
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting")
			.containsEntry("children_left", "3")
			.doesNotContainKeys("child:" + other + "/" + ignored, "child:" + other + "/" + removed);
		complete(this.queue, flow.children().get(2).id(), null);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting");
		complete(other, ignored, null);
		complete(other, removed, null);
		relayOnce(other);
		List<ClaimedJob> run = this.jobs.claims().claim(this.queue, LEASE, 10);
		assertThat(run).extracting(ClaimedJob::id).containsExactly(flow.id());
		assertThat(FlowChild.of(run.get(0).fields())).extracting(FlowChild::outcome)
			.containsExactly("completed", "completed", "completed");
		assertClean(this.queue, other);
	}

	@Test
	void aReplayedChildOfAParentAlreadyRunShouldChangeNothingOnIt() {
		String other = this.queue + "-other";
		FlowJob flow = template()
			.flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(other, "ignored"), ChildFailure.IGNORE));
		JobId child = flow.children().get(0).id();
		kill(other, child);
		relayOnce(other);
		// the parent runs and dies of its own error: it ran, so it stays dead
		kill(this.queue, flow.id());
		Map<Object, Object> before = row(this.queue, flow.id());
		assertThat(before).containsEntry("state", "dead");
		assertThat(this.jobs.admin().replay(other, child, 1).isApplied()).isTrue();
		String reopen = "reopen " + this.queue + " " + flow.id() + " " + child + " 1";
		assertThat(this.jobs.flows().outbox(other, 10)).containsExactly(reopen);
		assertThat(this.jobs.flows().apply(other, reopen)).isFalse();
		relayOnce(other);
		complete(other, child, null);
		relayOnce(other);
		assertThat(row(this.queue, flow.id())).isEqualTo(before);
		assertThat(this.jobs.flows().outbox(other, 10)).isEmpty();
		assertClean(this.queue, other);
	}

	private void kill(String queue, JobId id) {
		ClaimedJob job = claim(queue, id);
		assertThat(this.jobs.outcomes().deadLetter(queue, job.id(), job.token(), "boom").isApplied()).isTrue();
	}

	private void complete(String queue, JobId id, String result) {
		ClaimedJob job = claim(queue, id);
		assertThat(this.jobs.outcomes().complete(queue, job.id(), job.token(), null, result).isApplied()).isTrue();
	}

	private ClaimedJob claim(String queue, JobId id) {
		List<ClaimedJob> claimed = this.jobs.claims().claim(queue, LEASE, 1);
		assertThat(claimed).extracting(ClaimedJob::id).containsExactly(id);
		return claimed.get(0);
	}

	private void relayOnce(String... queues) {
		for (String queue : queues) {
			this.jobs.flows().relay(queue, 100);
		}
	}

}
