package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Cancelling and deleting within flows, and flows over partitioned queues: a child
 * cancelled or deleted before it finished settles its parent by its policy; a waiting
 * parent cancelled or deleted cancels its subtree, across slots through the outbox and
 * the relay; a job of a partitioned queue is written to a partition, by its partition
 * key.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowOpsTests extends FlowTestSupport {

	@Test
	void aWaitingChildCancelledOrDeletedShouldApplyItsPolicyToItsParent() {
		String other = this.queue + "-other";
		FlowJob failed = template().flow(FlowSpec.job(this.queue, "fails").child(FlowSpec.job(other, "cancelled")));
		FlowJob deleted = template().flow(FlowSpec.job(this.queue, "fails").child(FlowSpec.job(this.queue, "deleted")));
		FlowJob runs = template().flow(FlowSpec.job(this.queue, "runs")
			.child(FlowSpec.job(other, "ignored"), ChildFailure.IGNORE)
			.child(FlowSpec.job(this.queue, "removed"), ChildFailure.REMOVE));
		assertThat(this.jobs.admin().cancel(other, failed.children().get(0).id()).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.jobs.admin().delete(this.queue, deleted.children().get(0).id()).isApplied()).isTrue();
		assertThat(this.jobs.admin().cancel(other, runs.children().get(0).id()).outcome())
			.isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(this.jobs.admin().delete(this.queue, runs.children().get(1).id()).isApplied()).isTrue();
		relay(this.queue, other);
		Map<Object, Object> parent = row(this.queue, failed.id());
		assertThat(parent).containsEntry("state", "dead");
		assertThat(String.valueOf(parent.get("last_error")))
			.isEqualTo("child " + other + "/" + failed.children().get(0).id() + " was cancelled");
		assertThat(String.valueOf(row(this.queue, deleted.id()).get("last_error")))
			.isEqualTo("child " + this.queue + "/" + deleted.children().get(0).id() + " was deleted");
		ClaimedJob run = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(run.id()).isEqualTo(runs.id());
		assertThat(FlowChild.of(run.fields())).extracting(FlowChild::outcome).containsExactly("failed", "removed");
		assertClean(this.queue, other);
	}

	@Test
	void aRunningChildCancelledShouldSettleItsParentWhenItLeavesActive() {
		String other = this.queue + "-other";
		FlowJob local = template().flow(FlowSpec.job(this.queue, "local").child(FlowSpec.job(this.queue, "runs")));
		FlowJob remote = template()
			.flow(FlowSpec.job(this.queue, "remote").child(FlowSpec.job(other, "runs"), ChildFailure.IGNORE));
		ClaimedJob localChild = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		ClaimedJob remoteChild = this.jobs.claims().claim(other, LEASE, 1).get(0);
		assertThat(this.jobs.admin().cancel(this.queue, localChild.id()).outcome())
			.isEqualTo(CancelResult.Outcome.REQUESTED);
		assertThat(this.jobs.admin().cancel(other, remoteChild.id()).outcome())
			.isEqualTo(CancelResult.Outcome.REQUESTED);
		// the handlers come to an outcome anyway: each is retired as cancelled
		assertThat(this.jobs.outcomes().complete(this.queue, localChild.id(), localChild.token()).isApplied())
			.isFalse();
		assertThat(row(this.queue, local.id())).containsEntry("state", "dead");
		this.jobs.outcomes().retry(other, remoteChild.id(), remoteChild.token(), "interrupted", Duration.ZERO);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "waiting");
		relay(other);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "pending")
			.containsEntry("child:" + other + "/" + remoteChild.id(), "failed");
		assertClean(this.queue, other);
	}

	@Test
	void aCancelledParentShouldCancelItsTwoLevelSubtreeAcrossSlots() {
		String middle = this.queue + "-middle";
		String leaf = this.queue + "-leaf";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "root")
			.child(FlowSpec.job(middle, "middle").child(FlowSpec.job(leaf, "a")).child(FlowSpec.job(this.queue, "b")))
			.child(FlowSpec.job(this.queue, "sibling"))
			.child(FlowSpec.job(middle, "runs")));
		ClaimedJob running = this.jobs.claims().claim(middle, LEASE, 10).get(0);
		assertThat(running.id()).isEqualTo(flow.children().get(2).id());
		CancelResult cancelled = this.jobs.admin().cancel(this.queue, flow.id());
		assertThat(cancelled.outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		assertThat(cancelled.state()).isEqualTo(JobState.WAITING);
		relay(this.queue, middle, leaf);
		assertThat(this.jobs.outcomes().complete(middle, running.id(), running.token()).isApplied()).isFalse();
		relay(this.queue, middle, leaf);
		for (String queue : List.of(this.queue, middle, leaf)) {
			assertThat(this.redis.hasKey(this.jobs.keys(queue).waiting())).as(queue).isFalse();
			assertThat(this.redis.hasKey(this.jobs.keys(queue).pending())).as(queue).isFalse();
			assertThat(this.redis.hasKey(this.jobs.keys(queue).active())).as(queue).isFalse();
			assertThat(this.jobs.flows().outbox(queue, 10)).as(queue).isEmpty();
			assertClean(queue);
		}
	}

	@Test
	void aDeletedParentShouldCancelItsChildrenNotFinished() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(other, "done"))
			.child(FlowSpec.job(other, "waits"), ChildFailure.IGNORE));
		ClaimedJob done = this.jobs.claims().claim(other, LEASE, 1).get(0);
		assertThat(this.jobs.outcomes().complete(other, done.id(), done.token()).isApplied()).isTrue();
		relay(other);
		TransitionResult deleted = this.jobs.admin().delete(this.queue, flow.id());
		assertThat(deleted.isApplied()).isTrue();
		assertThat(deleted.state()).isEqualTo(JobState.WAITING);
		// the finished child is counted on the parent: only the other one is cancelled
		assertThat(this.jobs.flows().outbox(this.queue, 10)).hasSize(1);
		relay(this.queue, other);
		assertThat(this.redis.hasKey(this.jobs.keys(other).pending())).isFalse();
		assertThat(this.redis.hasKey(this.jobs.keys(this.queue).waiting())).isFalse();
		assertClean(this.queue, other);
	}

	@Test
	void aMalformedCancelRecordShouldBeRefusedAndLeftForAnOperator() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(other, "child")));
		String bad = "cancel no%20queue " + flow.children().get(0).id() + " " + flow.id();
		assertThatIllegalArgumentException().isThrownBy(() -> this.jobs.flows().apply(this.queue, bad));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.jobs.flows().apply(this.queue, "cancel " + other + " not-an-id " + flow.id()));
		this.redis.opsForZSet().add(this.jobs.keys(this.queue).outbox(), bad, 1);
		assertThat(this.jobs.flows().relay(this.queue, 10)).isZero();
		assertThat(this.jobs.flows().outbox(this.queue, 10)).containsExactly(bad);
		assertThat(row(other, flow.children().get(0).id())).containsEntry("state", "pending");
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting");
		String good = "cancel " + other + " " + flow.children().get(0).id() + " " + flow.id();
		assertThat(this.jobs.flows().apply(this.queue, good)).isTrue();
		assertThat(this.jobs.flows().apply(this.queue, good)).isFalse();
		assertThat(row(other, flow.children().get(0).id())).isEmpty();
	}

	@Test
	void aFlowOverPartitionedQueuesShouldRouteEachJobAndRunTheParentOnce() {
		String children = this.queue + "-parts";
		EchoMqTemplate template = template();
		template.setPartitioning(QueuePartitioning.of(Map.of(this.queue, 3, children, 4)));
		QueuePartitions parents = QueuePartitions.of(this.queue, 3);
		QueuePartitions parts = QueuePartitions.of(children, 4);
		FlowJob flow = template.flow(FlowSpec.job(this.queue, "parent")
			.options(EnqueueOptions.defaults().withPartitionKey("customer-7"))
			.child(FlowSpec.job(children, "a").options(EnqueueOptions.defaults().withPartitionKey("a")))
			.child(FlowSpec.job(children, "b").options(EnqueueOptions.defaults().withPartitionKey("b")))
			.child(FlowSpec.job(this.queue, "local")
				.options(EnqueueOptions.defaults().withPartitionKey("customer-7"))));
		String parentPartition = parents.name(parents.partitionForKey("customer-7"));
		assertThat(parents.nameOf(flow.id())).isEqualTo(parentPartition);
		assertThat(row(parentPartition, flow.id())).containsEntry("state", "waiting")
			.containsEntry("flow_children",
					parts.nameOf(flow.children().get(0).id()) + "/" + flow.children().get(0).id() + " "
							+ parts.nameOf(flow.children().get(1).id()) + "/" + flow.children().get(1).id() + " "
							+ parentPartition + "/" + flow.children().get(2).id());
		assertThat(parts.nameOf(flow.children().get(0).id())).isEqualTo(parts.name(parts.partitionForKey("a")));
		assertThat(parts.nameOf(flow.children().get(1).id())).isEqualTo(parts.name(parts.partitionForKey("b")));
		assertThat(row(parentPartition, flow.children().get(2).id())).containsEntry("flow_local", "1");
		complete(parentPartition, flow.children().get(2).id());
		assertThat(row(parentPartition, flow.id())).containsEntry("children_left", "2");
		complete(parts.nameOf(flow.children().get(0).id()), flow.children().get(0).id());
		complete(parts.nameOf(flow.children().get(1).id()), flow.children().get(1).id());
		relay(parts.names().toArray(String[]::new));
		assertThat(row(parentPartition, flow.id())).containsEntry("state", "pending")
			.containsEntry("children_left", "0");
		assertThat(this.jobs.claims().claim(parentPartition, LEASE, 10)).extracting(ClaimedJob::id)
			.containsExactly(flow.id());
		// cancel by the logical name goes to the partition the id names
		FlowJob cancelled = template.flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(children, "c").options(EnqueueOptions.defaults().withPartitionKey("c"))));
		EchoMqAdmin admin = new EchoMqAdmin(this.jobs);
		admin.setPartitioning(QueuePartitioning.of(Map.of(this.queue, 3, children, 4)));
		assertThat(admin.cancel(this.queue, cancelled.id()).outcome()).isEqualTo(CancelResult.Outcome.CANCELLED);
		relay(parents.names().toArray(String[]::new));
		assertThat(this.redis.hasKey(this.jobs.keys(parts.nameOf(cancelled.children().get(0).id())).pending()))
			.isFalse();
		for (String partition : parents.names()) {
			assertClean(partition);
		}
		for (String partition : parts.names()) {
			assertClean(partition);
		}
	}

	private void complete(String queue, JobId id) {
		ClaimedJob job = this.jobs.claims().claim(queue, LEASE, 10).get(0);
		assertThat(job.id()).isEqualTo(id);
		assertThat(this.jobs.outcomes().complete(queue, job.id(), job.token()).isApplied()).isTrue();
	}

}
