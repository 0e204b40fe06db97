package io.echomq.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * Flows: a parent waits in {@code waiting} until its children have finished, settled in
 * the child's own completing script when it is on the child's slot, through the outbox
 * and the relay when it is not; each child counted once, whatever the relay does twice.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowsTests extends FlowTestSupport {

	@Test
	void aParentInTheChildrensQueueShouldWaitUntilTheLastOfThemCompletes() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "a"))
			.child(FlowSpec.job(this.queue, "b")));
		JobId parent = flow.id();
		assertThat(row(this.queue, parent)).containsEntry("state", "waiting").containsEntry("children_left", "2");
		assertThat(this.redis.opsForZSet().score(this.jobs.keys(this.queue).waiting(), parent.toString())).isNotNull();
		List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, 10);
		assertThat(claimed).extracting(ClaimedJob::id)
			.containsExactlyInAnyOrder(flow.children().get(0).id(), flow.children().get(1).id());
		assertThat(this.jobs.outcomes().complete(this.queue, claimed.get(0).id(), claimed.get(0).token()).isApplied())
			.isTrue();
		assertThat(row(this.queue, parent)).containsEntry("state", "waiting").containsEntry("children_left", "1");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).isEmpty();
		AuditReport waiting = new QueueAuditor(this.jobs).audit(this.queue, Duration.ofSeconds(5));
		assertThat(waiting.violations()).isEmpty();
		assertThat(waiting.counts()).containsEntry(JobState.WAITING, 1L);
		assertThat(new QueueInspector(this.jobs).stats(this.queue).waiting()).isEqualTo(1);
		// complete_all leaves a child of a flow to complete, which settles the parent
		List<TransitionResult> batch = this.jobs.outcomes()
			.completeAll(this.queue, List.of(claimed.get(1).id()), List.of(claimed.get(1).token()));
		assertThat(batch).containsExactly((TransitionResult) null);
		assertThat(this.jobs.outcomes().complete(this.queue, claimed.get(1).id(), claimed.get(1).token()).isApplied())
			.isTrue();
		assertThat(row(this.queue, parent)).containsEntry("state", "pending").containsEntry("children_left", "0");
		ClaimedJob run = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(run.id()).isEqualTo(parent);
		assertThat(FlowChild.of(run.fields())).extracting(FlowChild::id, FlowChild::outcome)
			.containsExactly(tuple(flow.children().get(0).id(), "completed"),
					tuple(flow.children().get(1).id(), "completed"));
		assertClean(this.queue);
	}

	@Test
	void aParentInAnotherQueueShouldBePendingOnlyOnceTheRelayCarriedEveryChild() {
		String mail = this.queue + "-mail";
		String avatar = this.queue + "-avatar";
		FlowJob flow = template()
			.flow(FlowSpec.job(this.queue, "welcome").child(FlowSpec.job(mail, "m")).child(FlowSpec.job(avatar, "a")));
		complete(mail);
		assertThat(this.jobs.flows().outbox(mail, 10)).hasSize(1);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting").containsEntry("children_left", "2");
		assertThat(this.jobs.flows().relay(mail, 10)).isEqualTo(1);
		assertThat(this.jobs.flows().outbox(mail, 10)).isEmpty();
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting").containsEntry("children_left", "1");
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).isEmpty();
		complete(avatar);
		assertThat(this.jobs.flows().relay(avatar, 10)).isEqualTo(1);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "pending").containsEntry("children_left", "0");
		assertClaims(flow.id());
		assertClean(this.queue, mail, avatar);
	}

	@Test
	void everyNodesMaintenanceShouldRelayTheOutboxOfTheQueuesItMaintains() {
		String child = this.queue + "-child";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent").child(FlowSpec.job(child, "one")));
		EchoMqMaintenance maintenance = new EchoMqMaintenance(this.jobs,
				new MaintenanceSettings(Duration.ofSeconds(1), Duration.ofMillis(100), 100), () -> List.of(child),
				ThreadPoolTaskScheduler::new, List.of());
		complete(child);
		maintenance.start();
		try {
			awaitState(this.queue, flow.id(), "pending", Duration.ofSeconds(15));
		}
		finally {
			maintenance.stop();
		}
		assertThat(this.jobs.flows().outbox(child, 10)).isEmpty();
		assertClean(this.queue, child);
	}

	@Test
	void aCompletionShouldRelayItsOutboxRecordAtOnceNotAtTheNextIdleCheck() {
		String child = this.queue + "-child";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(child, "one"))
			.child(FlowSpec.job(child, "two").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					ChildFailure.IGNORE));
		// an idle check far beyond the await: only the prompt relay can release the
		// parent
		EchoMqMaintenance maintenance = new EchoMqMaintenance(this.jobs,
				new MaintenanceSettings(Duration.ofSeconds(60), Duration.ofSeconds(60), 100, Duration.ofMinutes(5)),
				() -> List.of(child), ThreadPoolTaskScheduler::new, List.of());
		maintenance.start();
		try {
			await().atMost(Duration.ofSeconds(5)).until(() -> maintenance.getReapTicks() > 0);
			complete(child);
			await().atMost(Duration.ofSeconds(3))
				.untilAsserted(() -> assertThat(row(this.queue, flow.id())).containsEntry("children_left", "1"));
			die(child);
			awaitState(this.queue, flow.id(), "pending", Duration.ofSeconds(3));
		}
		finally {
			maintenance.stop();
		}
		assertThat(this.jobs.flows().outbox(child, 10)).isEmpty();
		assertClean(this.queue, child);
	}

	@Test
	void aRelayKilledBetweenApplyAndRemoveShouldApplyTheRecordOnce() {
		String child = this.queue + "-child";
		FlowJob flow = template().flow(
				FlowSpec.job(this.queue, "parent").child(FlowSpec.job(child, "one")).child(FlowSpec.job(child, "two")));
		complete(child);
		String record = this.jobs.flows().outbox(child, 10).get(0);
		assertThat(this.jobs.flows().apply(child, record)).isTrue();
		// the node dies here: the record is still in the outbox, applied
		assertThat(this.jobs.flows().outbox(child, 10)).containsExactly(record);
		assertThat(this.jobs.flows().apply(child, record)).isFalse();
		assertThat(this.jobs.flows().relay(child, 10)).isEqualTo(1);
		assertThat(row(this.queue, flow.id())).containsEntry("children_left", "1");
		complete(child);
		this.jobs.flows().relay(child, 10);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "pending").containsEntry("children_left", "0");
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(this.queue).pending())).isEqualTo(1);
		assertClean(this.queue, child);
	}

	@Test
	void aDeadChildShouldDeadLetterItsParentWithAReasonNamingTheChild() {
		String other = this.queue + "-other";
		FlowJob local = template().flow(FlowSpec.job(this.queue, "local")
			.child(FlowSpec.job(this.queue, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		FlowJob remote = template().flow(FlowSpec.job(this.queue, "remote")
			.child(FlowSpec.job(other, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		die(this.queue);
		Map<Object, Object> parent = row(this.queue, local.id());
		assertThat(parent).containsEntry("state", "dead");
		assertThat(String.valueOf(parent.get("last_error"))).contains(local.children().get(0).id().toString());
		die(other);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "waiting");
		this.jobs.flows().relay(other, 10);
		assertThat(row(this.queue, remote.id())).containsEntry("state", "dead");
		assertThat(this.redis.opsForZSet().size(this.jobs.keys(this.queue).dead())).isEqualTo(3);
		assertClean(this.queue, other);
	}

	@Test
	void aChildWhoseLastLeaseExpiredShouldFailItsParentThroughTheRelay() {
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(this.queue, "hangs").options(EnqueueOptions.defaults().withMaxAttempts(1))));
		JobId child = this.jobs.claims().claim(this.queue, Duration.ofMillis(50), 1).get(0).id();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.jobs.upkeep().reap(this.queue, 10).dead() == 1);
		assertThat(row(this.queue, child)).containsEntry("state", "dead");
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting");
		assertThat(this.jobs.flows().relay(this.queue, 10)).isEqualTo(1);
		Map<Object, Object> parent = row(this.queue, flow.id());
		assertThat(parent).containsEntry("state", "dead");
		assertThat(String.valueOf(parent.get("last_error"))).contains(child.toString());
		assertClean(this.queue);
	}

	@Test
	void aDeadChildThatIsIgnoredShouldLeaveItsParentToRunWithTheChildMarkedFailed() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "parent")
			.child(FlowSpec.job(other, "dies").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					ChildFailure.IGNORE)
			.child(FlowSpec.job(this.queue, "removed").options(EnqueueOptions.defaults().withMaxAttempts(1)),
					ChildFailure.REMOVE));
		die(other);
		this.jobs.flows().relay(other, 10);
		die(this.queue);
		ClaimedJob run = this.jobs.claims().claim(this.queue, LEASE, 10).get(0);
		assertThat(run.id()).isEqualTo(flow.id());
		assertThat(FlowChild.of(run.fields())).extracting(FlowChild::outcome).containsExactly("failed", "removed");
		assertClean(this.queue);
	}

	@Test
	void theParentsHandlerShouldReadItsChildrensResults() {
		String other = this.queue + "-other";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "sum")
			.child(FlowSpec.job(other, "1"))
			.child(FlowSpec.job(this.queue + "-third", "2")));
		for (FlowJob child : flow.children()) {
			ClaimedJob job = this.jobs.claims().claim(child.queue(), LEASE, 1).get(0);
			assertThat(this.jobs.outcomes()
				.complete(child.queue(), job.id(), job.token(), null, "{\"n\":" + job.payload().replace("\"", "") + "}")
				.isApplied()).isTrue();
			this.jobs.flows().relay(child.queue(), 10);
		}
		ClaimedJob run = this.jobs.claims().claim(this.queue, LEASE, 1).get(0);
		int sum = 0;
		for (FlowChild child : FlowChild.of(run.fields())) {
			sum += template().result(child.queue(), child.id(), Answer.class).n();
		}
		assertThat(sum).isEqualTo(3);
	}

	@Test
	void aThreeLevelFlowShouldRunEachParentAfterItsChildren() {
		String middle = this.queue + "-middle";
		String leaf = this.queue + "-leaf";
		FlowJob flow = template().flow(FlowSpec.job(this.queue, "root")
			.child(FlowSpec.job(middle, "middle").child(FlowSpec.job(leaf, "leaf"))));
		assertThat(this.jobs.claims().claim(middle, LEASE, 10)).isEmpty();
		complete(leaf);
		this.jobs.flows().relay(leaf, 10);
		assertThat(row(this.queue, flow.id())).containsEntry("state", "waiting");
		complete(middle);
		this.jobs.flows().relay(middle, 10);
		assertClaims(flow.id());
		assertClean(this.queue, middle, leaf);
	}

	@Test
	void aMalformedFlowShouldWriteNothing() {
		assertThatIllegalArgumentException().isThrownBy(() -> template().flow(FlowSpec.job(this.queue, "parent")
			.options(EnqueueOptions.defaults().withDelay(Duration.ofSeconds(5)))
			.child(FlowSpec.job(this.queue, "a")))).withMessageContaining("cannot have a delay");
		FlowSpec deep = FlowSpec.job(this.queue, "leaf");
		for (int i = 0; i < 16; i++) {
			deep = FlowSpec.job(this.queue, "level").child(deep);
		}
		FlowSpec tooDeep = deep;
		assertThatIllegalArgumentException().isThrownBy(() -> template().flow(tooDeep))
			.withMessageContaining("at most 16 levels");
		FlowSpec badQueue = FlowSpec.job(this.queue, "parent").child(FlowSpec.job("no spaces", "a"));
		assertThatExceptionOfType(InvalidQueueNameException.class).isThrownBy(() -> template().flow(badQueue));
		List<String> children = new ArrayList<>(Collections.nCopies(1001, "c"));
		FlowSpec wide = FlowSpec.job(this.queue, "parent");
		for (String child : children) {
			wide = wide.child(FlowSpec.job(this.queue, child));
		}
		FlowSpec tooWide = wide;
		assertThatIllegalArgumentException().isThrownBy(() -> template().flow(tooWide))
			.withMessageContaining("at most 1000 children");
		assertThat(this.redis.hasKey(this.jobs.keys(this.queue).waiting())).isFalse();
		assertThat(this.redis.hasKey(this.jobs.keys(this.queue).pending())).isFalse();
	}

	record Answer(int n) {

	}

}
