package io.echomq.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.RedisRunLedger;
import io.echomq.chaos.worker.WorkerMain;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker JVM killed with {@code SIGKILL} in the middle of a batch: its leases expire,
 * the reaper of a surviving worker hands its jobs back to pending, and every job
 * completes at least once.
 *
 * @author EchoMQ
 */
@Tag("chaos")
class WorkerKillTests extends ChaosOnEachFlavor {

	private static final int JOBS = 300;

	private static final Duration LEASE = Duration.ofSeconds(2);

	private static final int CONCURRENCY = 8;

	private static final long MIN_WORK_MS = 100;

	private static final long MAX_WORK_MS = 300;

	private TestServer server;

	@RegisterExtension
	final ChildWorkers workers = new ChildWorkers();

	@BeforeEach
	void startServer() {
		this.server = this.servers.start(this.flavor);
	}

	@Test
	@Timeout(180)
	void workerJvmKilledMidBatchLosesNoJob() throws Exception {
		String prefix = Chaos.uniquePrefix();
		String queue = "kill9";
		try (ChaosWorker survivor = ChaosWorker.onServer(this.server, Duration.ofSeconds(5),
				WorkerSettings.of(prefix).withConcurrency(CONCURRENCY).withLease(LEASE))) {
			Engine jobs = survivor.jobs();
			List<String> payloads = new ArrayList<>();
			for (int i = 0; i < JOBS; i++) {
				payloads.add("p" + i);
			}
			// a budget large enough that a reaped attempt never dead-letters a job
			List<JobId> ids = jobs.enqueues().enqueueAll(queue, payloads, EnqueueSpec.defaults().withMaxAttempts(10));
			RedisRunLedger ledger = new RedisRunLedger(survivor.template(), prefix, queue);
			long start = System.nanoTime();
			Path log = childLog();
			Process worker = startChild(prefix, queue, log);
			await("worker JVM busy").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(20))
				.failFast("worker JVM exited", () -> !worker.isAlive())
				.until(() -> ledger.distinct() >= 40 && Chaos.locations(jobs, queue).active() >= CONCURRENCY / 2);
			Set<String> activeAtKill = Chaos.ids(jobs, queue, KeyType.ACTIVE);
			long doneAtKill = ledger.distinct();
			worker.destroyForcibly();
			assertThat(worker.waitFor(10, TimeUnit.SECONDS)).as("worker JVM ended").isTrue();
			long killed = System.nanoTime();
			assertThat(worker.exitValue()).as("killed by SIGKILL").isEqualTo(137);

			survivor.register(queue, WorkerMain.handler(ledger, MIN_WORK_MS, MAX_WORK_MS));
			survivor.start();
			await("first reap").atMost(Duration.ofSeconds(30)).until(() -> Chaos.metric(jobs, queue, "reaped") > 0);
			double takeover = Chaos.secondsSince(killed);
			await("drained").atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> Chaos.locations(jobs, queue).live() == 0);
			assertThat(survivor.pollersAlive()).isTrue();
			survivor.stop();

			Map<String, Long> runs = ledger.runs();
			AuditReport report = Chaos.audit(jobs, queue);
			long lost = ids.stream().filter((id) -> !runs.containsKey(id.toString())).count();
			long totalRuns = runs.values().stream().mapToLong(Long::longValue).sum();
			long reaped = Chaos.metric(jobs, queue, "reaped");
			Chaos.report("kill9", "server", Chaos.describe(this.server), "enqueued", JOBS, "completed",
					Chaos.metric(jobs, queue, "completed"), "activeAtKill", activeAtKill.size(), "doneAtKill",
					doneAtKill, "reruns", reaped, "duplicateRuns", totalRuns - runs.size(), "lost", lost,
					"takeoverSeconds", takeover, "seconds", Chaos.secondsSince(start));
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
			assertThat(report.rows()).isZero();
			assertThat(lost).isZero();
			assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids.stream().map(JobId::toString).toList());
			assertThat(Chaos.metric(jobs, queue, "completed")).isEqualTo(JOBS);
			assertThat(Chaos.metric(jobs, queue, "dead")).isZero();
			assertThat(reaped).as("the killed worker's claims were reaped").isPositive();
			assertThat(activeAtKill).allSatisfy((id) -> assertThat(runs).containsKey(id));
		}
	}

	private Process startChild(String prefix, String queue, Path log) {
		return this.workers.start(log,
				List.of(this.server.host(), String.valueOf(this.server.port()), prefix, queue,
						String.valueOf(CONCURRENCY), String.valueOf(LEASE.toMillis()), String.valueOf(MIN_WORK_MS),
						String.valueOf(MAX_WORK_MS), "170"));
	}

	private Path childLog() throws IOException {
		Path directory = Path.of("target");
		String name = "chaos-worker-" + this.flavor.name().toLowerCase(Locale.ROOT) + ".log";
		return Files.isDirectory(directory) ? directory.resolve(name) : Files.createTempFile("chaos-worker-", ".log");
	}

}
