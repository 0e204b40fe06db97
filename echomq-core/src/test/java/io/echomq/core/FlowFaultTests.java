package io.echomq.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.echomq.EchoMqTemplate;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.ChildJvm;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A three-level flow, each level in a queue of its own (three slots on the cluster),
 * under {@code SIGKILL}: a worker JVM killed while the leaves run, a JVM killed after a
 * leaf completed and before any relay step, and a JVM killed after it applied a child's
 * outbox record on the parent's slot and before it removed the record. Each parent runs
 * once, after all its children, with every child's result, and the audit is clean.
 *
 * @author EchoMQ
 */
// on the cluster only: each run starts three JVMs (about 40 s); it passed on Valkey 8 too
@EnumSource(names = "CLUSTER")
class FlowFaultTests extends EngineTestSupport {

	private static final int MIDS = 3;

	private static final int LEAVES = 4;

	private final List<Process> children = new ArrayList<>();

	private final List<Thread> survivors = new ArrayList<>();

	@AfterEach
	void stopEverything() throws InterruptedException {
		for (Thread survivor : this.survivors) {
			survivor.interrupt();
			survivor.join(5_000);
		}
		for (Process child : this.children) {
			child.destroyForcibly();
			child.waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	@Timeout(120)
	void eachParentShouldRunOnceAfterEveryChildWhateverIsKilled() throws Exception {
		String root = this.queue + "-root";
		String mid = this.queue + "-mid";
		String leaf = this.queue + "-leaf";
		Set<Integer> slots = new HashSet<>();
		for (String queue : List.of(root, mid, leaf)) {
			slots.add(SlotHash.getSlot(this.jobs.keys(queue).waiting()));
		}
		assertThat(slots).hasSize(3);
		FlowSpec spec = FlowSpec.job(root, "root");
		for (int m = 0; m < MIDS; m++) {
			FlowSpec parent = FlowSpec.job(mid, "mid" + m);
			for (int l = 0; l < LEAVES; l++) {
				parent = parent
					.child(FlowSpec.job(leaf, "leaf" + m + l).options(EnqueueOptions.defaults().withMaxAttempts(10)));
			}
			spec = spec.child(parent);
		}
		FlowJob flow = template().flow(spec);
		String tag = this.queue;

		// 1. a worker JVM on the leaves, killed while some run
		Process worker = child(tag, "work", leaf);
		await("leaves running").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(20))
			.failFast("worker JVM exited", () -> !worker.isAlive())
			.until(() -> runs(tag).size() >= 2 && count(leaf, JobState.ACTIVE) >= 1
					&& count(leaf, JobState.PENDING) >= 1);
		kill(worker);

		// 2. a JVM that completes a leaf and is killed before any relay step
		Process completer = child(tag, "complete", leaf);
		String completed = killAtMarker(completer, tag, "complete");
		assertThat(this.jobs.flows().outbox(leaf, 100)).anyMatch((record) -> record.endsWith(" " + completed));

		// 3. a survivor on the leaves: every mid becomes pending
		AtomicReference<List<String>> maintained = new AtomicReference<>(List.of(leaf));
		EchoMqMaintenance maintenance = new EchoMqMaintenance(this.jobs,
				new MaintenanceSettings(Duration.ofMillis(200), Duration.ofMillis(200), 100, Duration.ofSeconds(1)),
				maintained::get, ThreadPoolTaskScheduler::new, List.of());
		maintenance.start();
		try {
			survive(tag, leaf);
			await("every mid pending").atMost(Duration.ofSeconds(60))
				.until(() -> count(mid, JobState.PENDING) == MIDS && count(leaf, JobState.ACTIVE) == 0);

			// 4. a JVM that completes a mid, applies its record on the root's slot, and
			// is
			// killed before removing it
			Process applier = child(tag, "apply", mid);
			String applied = killAtMarker(applier, tag, "apply");
			assertThat(row(root, flow.id())).containsKey("child:" + mid + "/" + applied)
				.containsEntry("children_left", String.valueOf(MIDS - 1));
			assertThat(this.jobs.flows().outbox(mid, 100)).anyMatch((record) -> record.endsWith(" " + applied));

			// another node relays the record: applied again, it changes nothing
			assertThat(this.jobs.flows().relay(mid, 100)).isEqualTo(1);
			assertThat(row(root, flow.id())).containsEntry("state", "waiting")
				.containsEntry("children_left", String.valueOf(MIDS - 1));

			// 5. the survivor runs the rest
			maintained.set(List.of(root, mid, leaf));
			survive(tag, mid);
			survive(tag, root);
			await("root ran").atMost(Duration.ofSeconds(60))
				.until(() -> runs(tag).containsKey(root + "/" + flow.id()) && live(root) + live(mid) + live(leaf) == 0
						&& this.jobs.flows().outbox(mid, 1).isEmpty() && this.jobs.flows().outbox(leaf, 1).isEmpty());
		}
		finally {
			maintenance.stop();
		}
		Map<Object, Object> runs = runs(tag);
		assertThat(runs).containsEntry(root + "/" + flow.id(), "1");
		assertThat(runs).hasSize(1 + MIDS + MIDS * LEAVES);
		for (FlowJob m : flow.children()) {
			assertThat(runs).containsEntry(mid + "/" + m.id(), "1");
		}
		List<String> order = this.redis.opsForList().range(FlowFaultChild.orderKey(tag), 0, -1);
		assertThat(order).last().isEqualTo(root + "/" + flow.id());
		assertThat(this.redis.opsForList().range(FlowFaultChild.violationsKey(tag), 0, -1)).isEmpty();
		for (String queue : List.of(root, mid, leaf)) {
			AuditReport report = new QueueAuditor(this.jobs).audit(queue, Duration.ofSeconds(5));
			assertThat(report.violations()).as(queue).isEmpty();
			assertThat(report.total()).as(queue).isZero();
		}
	}

	private Process child(String tag, String mode, String queue) throws Exception {
		String[] connection = this.engine.connectionArguments();
		Path log = Files.createTempFile("flow-fault-" + mode, ".log");
		Process process = ChildJvm.start(FlowFaultChild.class, log,
				List.of(connection[0], connection[1], tag, mode, queue));
		this.children.add(process);
		return process;
	}

	private String killAtMarker(Process process, String tag, String mode) throws InterruptedException {
		await(mode + " reached").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(20))
			.failFast(mode + " JVM exited", () -> !process.isAlive())
			.until(() -> this.redis.opsForValue().get(FlowFaultChild.markerKey(tag)) != null);
		kill(process);
		String marker = this.redis.opsForValue().getAndDelete(FlowFaultChild.markerKey(tag));
		assertThat(marker).startsWith(mode + " ");
		return marker.substring(mode.length() + 1);
	}

	private static void kill(Process process) throws InterruptedException {
		process.destroyForcibly();
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as("killed by SIGKILL").isEqualTo(137);
	}

	private void survive(String tag, String queue) {
		Thread survivor = new Thread(() -> FlowFaultChild.work(this.jobs, this.redis, tag, List.of(queue)));
		survivor.setDaemon(true);
		survivor.start();
		this.survivors.add(survivor);
	}

	private Map<Object, Object> runs(String tag) {
		return this.redis.opsForHash().entries(FlowFaultChild.runsKey(tag));
	}

	private long count(String queue, JobState state) {
		Long size = this.redis.opsForZSet().size(this.jobs.keys(queue).location(state));
		return (size != null) ? size : 0;
	}

	private long live(String queue) {
		return count(queue, JobState.PENDING) + count(queue, JobState.ACTIVE) + count(queue, JobState.WAITING)
				+ count(queue, JobState.SCHEDULE);
	}

	private Map<Object, Object> row(String queue, JobId id) {
		return this.redis.opsForHash().entries(this.keyspace.jobKey(queue, id));
	}

	private EchoMqTemplate template() {
		return new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024,
				(queue) -> 3, List.of());
	}

}
