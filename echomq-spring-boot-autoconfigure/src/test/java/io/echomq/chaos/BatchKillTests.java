package io.echomq.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.echomq.EchoMqTemplate;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.RedisRunLedger;
import io.echomq.chaos.worker.WorkerMain;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowSpec;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.OwnedServers;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A batch of 10,000 jobs consumed by two JVMs, one killed with {@code SIGKILL} midway
 * (while it completes jobs and relays their outbox records): the success callback is
 * enqueued exactly once, and only once the last job has completed. In the same run, a
 * second batch, consumed by the same two JVMs through the same kill, has one job that
 * fails until it is dead: its death callback is enqueued once, after that job died, its
 * complete callback once, after every job finished, and its success callback is retired.
 * Runs on Valkey only, to keep the time small; the cross-slot relay and the double apply
 * are covered on every flavor by {@code BatchesTests}.
 *
 * @author EchoMQ
 */
class BatchKillTests {

	private static final int JOBS = 10_000;

	private static final String QUEUE = "batch-kill";

	private static final String DYING_QUEUE = "batch-kill-dead";

	private static final int DYING_JOBS = 3_000;

	private static final String CALLBACKS = "batch-kill-done";

	@RegisterExtension
	@Order(1)
	final OwnedServers servers = new OwnedServers();

	// registered after the servers, so the worker is killed before they close
	@RegisterExtension
	@Order(2)
	final ChildWorkers workers = new ChildWorkers();

	@Test
	@Timeout(120)
	void theCallbacksOfBatchesAreEnqueuedOnceAfterTheJobsThatDecideThemWhenAWorkerJvmIsKilled() throws Exception {
		TestServer server = this.servers.start(ServerFlavor.VALKEY);
		String prefix = Chaos.uniquePrefix();
		try (ChaosWorker survivor = ChaosWorker.onServer(server, Duration.ofSeconds(5),
				WorkerSettings.of(prefix).withLease(Duration.ofSeconds(1)))) {
			Engine jobs = survivor.jobs();
			RedisRunLedger ledger = new RedisRunLedger(survivor.template(), prefix, QUEUE);
			RedisRunLedger dyingLedger = new RedisRunLedger(survivor.template(), prefix, DYING_QUEUE);
			Path log = Files.createTempFile("echomq-batch-kill-", ".log");
			Process worker = this.workers.start(log, List.of(server.host(), String.valueOf(server.port()), prefix,
					QUEUE + "," + DYING_QUEUE, "8", "1000", "0", "1", "110"));
			await("worker JVM ready").atMost(Duration.ofSeconds(60))
				.failFast("worker JVM exited", () -> !worker.isAlive())
				.until(() -> Files.readString(log).contains("READY"));
			survivor.register(QUEUE, WorkerMain.handler(ledger, 0, 1));
			survivor.register(DYING_QUEUE, WorkerMain.handler(dyingLedger, 0, 1));
			survivor.start();
			EchoMqTemplate template = new EchoMqTemplate(jobs,
					new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024, (queue) -> 1, List.of());
			List<FlowSpec> members = new ArrayList<>(JOBS);
			EnqueueOptions options = EnqueueOptions.defaults().withMaxAttempts(10);
			for (int i = 0; i < JOBS; i++) {
				members.add(FlowSpec.job(QUEUE, "p" + i).options(options));
			}
			// the second batch: one job fails until it is dead, in one attempt so it dies
			// mid-batch (a retry waits for the promoter, seconds, by which time the batch
			// has drained and a callback fired early looks like one fired in time)
			List<FlowSpec> dyingMembers = new ArrayList<>(DYING_JOBS);
			for (int i = 0; i < DYING_JOBS; i++) {
				dyingMembers.add((i == DYING_JOBS / 4)
						? FlowSpec.job(DYING_QUEUE, "poison").options(EnqueueOptions.defaults().withMaxAttempts(1))
						: FlowSpec.job(DYING_QUEUE, "p" + i).options(options));
			}
			long start = System.nanoTime();
			BatchJob batch = template.batch(BatchSpec.in(QUEUE)
				.jobs(members)
				.onSuccess(FlowSpec.job(CALLBACKS, "success"))
				.onDeath(FlowSpec.job(CALLBACKS, "death")));
			BatchJob dying = template.batch(BatchSpec.in(DYING_QUEUE)
				.jobs(dyingMembers)
				.onSuccess(FlowSpec.job(CALLBACKS, "dying-success"))
				.onComplete(FlowSpec.job(CALLBACKS, "dying-complete"))
				.onDeath(FlowSpec.job(CALLBACKS, "dying-death")));
			double written = Chaos.secondsSince(start);
			JobId poison = dying.jobs().get(DYING_JOBS / 4).id();
			String callbackRow = jobs.keyspace().jobKey(CALLBACKS, batch.onSuccess().id());
			String completeRow = jobs.keyspace().jobKey(CALLBACKS, dying.onComplete().id());
			String deathRow = jobs.keyspace().jobKey(CALLBACKS, dying.onDeath().id());
			String poisonRow = jobs.keyspace().jobKey(DYING_QUEUE, poison);
			// from the moment a callback leaves waiting, what decides it must have
			// happened: no job of the batch left (success, complete), the job dead
			// (death); nothing consumes the callbacks, so each stays pending
			AtomicBoolean sampling = new AtomicBoolean(true);
			AtomicLong liveWhenFired = new AtomicLong(-1);
			AtomicLong liveWhenCompleteFired = new AtomicLong(-1);
			// and the jobs the batch counted then (the relay lags the completions, so
			// this sees an early fire that the live count alone may not)
			AtomicLong countedWhenCompleteFired = new AtomicLong(-1);
			String dyingBatchRow = jobs.keys(DYING_QUEUE).batch(dying.id().toString());
			String batchRow = jobs.keys(QUEUE).batch(batch.id().toString());
			AtomicLong countedWhenFired = new AtomicLong(-1);
			AtomicReference<Object> poisonWhenDeathFired = new AtomicReference<>();
			Thread sampler = new Thread(() -> {
				while (sampling.get() && (liveWhenFired.get() < 0 || liveWhenCompleteFired.get() < 0
						|| poisonWhenDeathFired.get() == null)) {
					if (liveWhenFired.get() < 0 && isPending(survivor, callbackRow)) {
						liveWhenFired.set(Chaos.locations(jobs, QUEUE).live());
						countedWhenFired
							.set(Long.parseLong((String) survivor.template().opsForHash().get(batchRow, "completed")));
					}
					if (liveWhenCompleteFired.get() < 0 && isPending(survivor, completeRow)) {
						liveWhenCompleteFired.set(Chaos.locations(jobs, DYING_QUEUE).live());
						List<Object> counts = survivor.template()
							.opsForHash()
							.multiGet(dyingBatchRow, List.of("completed", "dead"));
						countedWhenCompleteFired
							.set(Long.parseLong((String) counts.get(0)) + Long.parseLong((String) counts.get(1)));
					}
					if (poisonWhenDeathFired.get() == null && isPending(survivor, deathRow)) {
						Object state = survivor.template().opsForHash().get(poisonRow, "state");
						poisonWhenDeathFired.set((state != null) ? state : "gone");
					}
					// a sampling interval, not a synchronisation
					LockSupport.parkNanos(1_000_000);
				}
			}, "callback-sampler");
			sampler.start();
			long doneAtKill;
			long dyingDoneAtKill;
			try {
				// the second batch is smaller and drains beside the first: kill while
				// both run
				await("midway").atMost(Duration.ofSeconds(60))
					.failFast("worker JVM exited", () -> !worker.isAlive())
					.until(() -> ledger.distinct() >= JOBS / 3 || dyingLedger.distinct() >= DYING_JOBS * 2 / 3);
				worker.destroyForcibly();
				assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
				assertThat(worker.exitValue()).as("killed by SIGKILL").isEqualTo(137);
				doneAtKill = ledger.distinct();
				dyingDoneAtKill = dyingLedger.distinct();
				await("the callbacks enqueued").atMost(Duration.ofSeconds(60))
					.until(() -> liveWhenFired.get() >= 0 && liveWhenCompleteFired.get() >= 0
							&& poisonWhenDeathFired.get() != null);
				assertThat(doneAtKill).as("the kill came before the end").isLessThan(JOBS);
				assertThat(dyingDoneAtKill).as("the kill came before the second batch's end")
					.isLessThan(DYING_JOBS - 1);
			}
			finally {
				sampling.set(false);
				sampler.join();
			}
			assertThat(countedWhenFired.get()).as("jobs the batch counted when the callback was enqueued")
				.isEqualTo(JOBS);
			assertThat(liveWhenFired.get()).as("jobs of the batch left when the callback was enqueued").isZero();
			BatchStatus status = template.batchStatus(QUEUE, batch.id());
			assertThat(status).isNotNull();
			assertThat(status)
				.extracting(BatchStatus::state, BatchStatus::total, BatchStatus::completed, BatchStatus::dead)
				.containsExactly("finished", (long) JOBS, (long) JOBS, 0L);
			assertThat(status.onSuccess().fired()).isEqualTo("completed");
			assertThat(status.onDeath().fired()).isEqualTo("skipped");
			assertThat(countedWhenCompleteFired.get()).as("jobs the second batch counted when complete was enqueued")
				.isEqualTo(DYING_JOBS);
			assertThat(liveWhenCompleteFired.get()).as("jobs of the second batch left when complete was enqueued")
				.isZero();
			assertThat(poisonWhenDeathFired.get()).as("the failing job when death was enqueued").isEqualTo("dead");
			await("the second batch finished").atMost(Duration.ofSeconds(10))
				.until(() -> "finished".equals(template.batchStatus(DYING_QUEUE, dying.id()).state()));
			BatchStatus dyingStatus = template.batchStatus(DYING_QUEUE, dying.id());
			assertThat(dyingStatus)
				.extracting(BatchStatus::total, BatchStatus::completed, BatchStatus::dead, BatchStatus::pending)
				.containsExactly((long) DYING_JOBS, (long) DYING_JOBS - 1, 1L, 0L);
			assertThat(dyingStatus.onSuccess().fired()).isEqualTo("skipped");
			assertThat(dyingStatus.onComplete().fired()).isEqualTo("completed");
			assertThat(dyingStatus.onDeath().fired()).isEqualTo("completed");
			await("outbox drained").atMost(Duration.ofSeconds(10))
				.until(() -> jobs.flows().outbox(QUEUE, 10).isEmpty() && jobs.flows().outbox(DYING_QUEUE, 10).isEmpty()
						&& survivor.template().opsForZSet().size(jobs.keys(CALLBACKS).waiting()) == 0);
			// each callback enqueued once: pending holds each id once, and none ran
			// twice through waiting (retired success callback: out of waiting, row gone)
			assertThat(survivor.template().opsForZSet().range(jobs.keys(CALLBACKS).pending(), 0, -1))
				.containsExactlyInAnyOrder(batch.onSuccess().id().toString(), dying.onComplete().id().toString(),
						dying.onDeath().id().toString());
			assertThat(survivor.template().hasKey(jobs.keyspace().jobKey(CALLBACKS, dying.onSuccess().id())))
				.as("the retired success callback's row")
				.isFalse();
			assertThat(Chaos.metric(jobs, QUEUE, "completed")).isEqualTo(JOBS);
			assertThat(ledger.runs()).hasSize(JOBS);
			assertThat(Chaos.metric(jobs, DYING_QUEUE, "completed")).isEqualTo(DYING_JOBS - 1);
			assertThat(dyingLedger.runs()).hasSize(DYING_JOBS - 1).doesNotContainKey(poison.toString());
			assertThat(survivor.template().opsForZSet().range(jobs.keys(DYING_QUEUE).dead(), 0, -1))
				.containsExactly(poison.toString());
			Chaos.report("batch-kill9", "jobs", JOBS, "writeSeconds", written, "doneAtKill", doneAtKill,
					"dyingDoneAtKill", dyingDoneAtKill, "reaped",
					Chaos.metric(jobs, QUEUE, "reaped") + Chaos.metric(jobs, DYING_QUEUE, "reaped"), "seconds",
					Chaos.secondsSince(start));
			assertThat(Chaos.audit(jobs, QUEUE).violations()).isEmpty();
			assertThat(Chaos.audit(jobs, DYING_QUEUE).violations()).isEmpty();
			assertThat(Chaos.audit(jobs, CALLBACKS).violations()).isEmpty();
			survivor.stop();
			Files.deleteIfExists(log);
		}
	}

	private static boolean isPending(ChaosWorker worker, String row) {
		return "pending".equals(worker.template().opsForHash().get(row, "state"));
	}

}
