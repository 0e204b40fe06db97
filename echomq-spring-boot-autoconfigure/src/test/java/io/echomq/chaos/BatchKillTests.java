package io.echomq.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.echomq.BatchJob;
import io.echomq.BatchSpec;
import io.echomq.BatchStatus;
import io.echomq.EchoMqTemplate;
import io.echomq.EnqueueOptions;
import io.echomq.FlowSpec;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.RedisRunLedger;
import io.echomq.chaos.worker.WorkerMain;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.internal.Engine;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.ChildJvm;
import io.echomq.test.OwnedServers;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A batch of 10,000 jobs consumed by two JVMs, one killed with {@code SIGKILL} midway
 * (while it completes jobs and relays their outbox records): the success callback is
 * enqueued exactly once, and only once the last job has completed. Runs on Valkey only,
 * to keep the time small; the cross-slot relay and the double apply are covered on every
 * flavor by {@code BatchesTests}.
 *
 * @author EchoMQ
 */
class BatchKillTests {

	private static final int JOBS = 10_000;

	private static final String QUEUE = "batch-kill";

	private static final String CALLBACKS = "batch-kill-done";

	@RegisterExtension
	final OwnedServers servers = new OwnedServers();

	private Process child;

	@AfterEach
	void stopChild() throws InterruptedException {
		if (this.child != null && this.child.isAlive()) {
			this.child.destroyForcibly();
			this.child.waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	@Timeout(120)
	void theSuccessCallbackOfABatchIsEnqueuedOnceAfterItsLastJobWhenAWorkerJvmIsKilled() throws Exception {
		TestServer server = this.servers.start(ServerFlavor.VALKEY);
		String prefix = Chaos.uniquePrefix();
		try (ChaosWorker survivor = ChaosWorker.onServer(server, Duration.ofSeconds(5),
				WorkerSettings.of(prefix).withLease(Duration.ofSeconds(1)))) {
			Engine jobs = survivor.jobs();
			RedisRunLedger ledger = new RedisRunLedger(survivor.template(), prefix, QUEUE);
			Path log = Files.createTempFile("echomq-batch-kill-", ".log");
			Process worker = ChildJvm.start(WorkerMain.class, log,
					List.of(server.host(), String.valueOf(server.port()), prefix, QUEUE, "8", "1000", "0", "1", "110"));
			this.child = worker;
			await("worker JVM ready").atMost(Duration.ofSeconds(60))
				.failFast("worker JVM exited", () -> !worker.isAlive())
				.until(() -> Files.readString(log).contains("READY"));
			survivor.register(QUEUE, WorkerMain.handler(ledger, 0, 1));
			survivor.start();
			EchoMqTemplate template = new EchoMqTemplate(jobs,
					new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024, (queue) -> 1, List.of());
			List<FlowSpec> members = new ArrayList<>(JOBS);
			EnqueueOptions options = EnqueueOptions.defaults().withMaxAttempts(10);
			for (int i = 0; i < JOBS; i++) {
				members.add(FlowSpec.job(QUEUE, "p" + i).options(options));
			}
			long start = System.nanoTime();
			BatchJob batch = template.batch(BatchSpec.in(QUEUE)
				.jobs(members)
				.onSuccess(FlowSpec.job(CALLBACKS, "success"))
				.onDeath(FlowSpec.job(CALLBACKS, "death")));
			double written = Chaos.secondsSince(start);
			String callbackRow = jobs.keyspace().jobKey(CALLBACKS, batch.onSuccess().id());
			// from the moment the callback leaves waiting, no job of the batch may be
			// left
			AtomicBoolean sampling = new AtomicBoolean(true);
			AtomicLong liveWhenFired = new AtomicLong(-1);
			Thread sampler = new Thread(() -> {
				while (sampling.get() && liveWhenFired.get() < 0) {
					if ("pending".equals(survivor.template().opsForHash().get(callbackRow, "state"))) {
						liveWhenFired.set(Chaos.locations(jobs, QUEUE).live());
					}
					// a sampling interval, not a synchronisation
					LockSupport.parkNanos(1_000_000);
				}
			}, "callback-sampler");
			sampler.start();
			long doneAtKill;
			try {
				await("midway").atMost(Duration.ofSeconds(60))
					.failFast("worker JVM exited", () -> !worker.isAlive())
					.until(() -> ledger.distinct() >= JOBS / 3);
				worker.destroyForcibly();
				assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
				assertThat(worker.exitValue()).as("killed by SIGKILL").isEqualTo(137);
				doneAtKill = ledger.distinct();
				await("the success callback enqueued").atMost(Duration.ofSeconds(60))
					.until(() -> liveWhenFired.get() >= 0);
				assertThat(doneAtKill).as("the kill came before the end").isLessThan(JOBS);
			}
			finally {
				sampling.set(false);
				sampler.join();
			}
			assertThat(liveWhenFired.get()).as("jobs of the batch left when the callback was enqueued").isZero();
			BatchStatus status = template.batchStatus(QUEUE, batch.id());
			assertThat(status).isNotNull();
			assertThat(status)
				.extracting(BatchStatus::state, BatchStatus::total, BatchStatus::completed, BatchStatus::dead)
				.containsExactly("finished", (long) JOBS, (long) JOBS, 0L);
			assertThat(status.onSuccess().fired()).isEqualTo("completed");
			assertThat(status.onDeath().fired()).isEqualTo("skipped");
			await("outbox drained").atMost(Duration.ofSeconds(10))
				.until(() -> jobs.flows().outbox(QUEUE, 10).isEmpty());
			assertThat(survivor.template().opsForZSet().range(jobs.keys(CALLBACKS).pending(), 0, -1))
				.containsExactly(batch.onSuccess().id().toString());
			assertThat(Chaos.metric(jobs, QUEUE, "completed")).isEqualTo(JOBS);
			assertThat(ledger.runs()).hasSize(JOBS);
			Chaos.report("batch-kill9", "jobs", JOBS, "writeSeconds", written, "doneAtKill", doneAtKill, "reaped",
					Chaos.metric(jobs, QUEUE, "reaped"), "seconds", Chaos.secondsSince(start));
			assertThat(Chaos.audit(jobs, QUEUE).violations()).isEmpty();
			assertThat(Chaos.audit(jobs, CALLBACKS).violations()).isEmpty();
			survivor.stop();
			Files.deleteIfExists(log);
		}
	}

}
