package io.echomq.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Faults between the workers and a server that stays up, injected while a container
 * drains a queue: {@code SCRIPT FLUSH}, {@code CLIENT PAUSE ... ALL},
 * {@code CLIENT KILL TYPE normal} and a busy server ({@code DEBUG SLEEP}). After each,
 * the container recovers with its poller alive, every job completes and the audit is
 * clean.
 *
 * @author EchoMQ
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("chaos")
@ParameterizedClass(name = "on {0}")
@EnumSource(ServerFlavor.class)
class ConnectionFaultTests {

	private static final int JOBS = 1000;

	private static final int INJECTIONS = 4;

	@Parameter
	ServerFlavor flavor;

	private TestServer server;

	private boolean debugCommand;

	private final String prefix = Chaos.uniquePrefix();

	@BeforeParameterizedClassInvocation
	void startServer() {
		if (TestRedisServer.unavailability(this.flavor).isPresent()) {
			// each test is skipped with the reason
			return;
		}
		Optional<ServerBinary> binary = ServerBinary.onPath(this.flavor);
		// DEBUG is off by default since Redis 7; Redis 6.2 (the embedded binary) knows no
		// such option and allows DEBUG as it is
		boolean enableDebug = binary.isPresent() && majorVersion(binary.get().version()) >= 7;
		ServerOptions options = enableDebug ? ServerOptions.builder().extraArgs("--enable-debug-command", "yes").build()
				: ServerOptions.defaults();
		this.server = TestRedisServer.startOwned(this.flavor, options);
		int major = majorVersion(this.server.version());
		this.debugCommand = enableDebug || (major > 0 && major < 7);
	}

	@BeforeEach
	void skipWithoutServer() {
		TestRedisServer.unavailability(this.flavor).ifPresent(Assumptions::abort);
	}

	@AfterParameterizedClassInvocation
	void stopServer() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	@Timeout(120)
	void scriptFlushUnderLoadFallsBackToEvalAndLosesNothing() throws Exception {
		String queue = "flush";
		Ledger ledger = new Ledger();
		try (ChaosWorker worker = worker(Duration.ofSeconds(2), ledger);
				ChaosWorker producerSide = worker(Duration.ofSeconds(2), new Ledger())) {
			QueueListenerContainer container = worker.register(queue, (job, context) -> ledger.ran(job.id()));
			worker.start();
			long start = System.nanoTime();
			CountDownLatch stop = new CountDownLatch(1);
			AtomicInteger flushes = new AtomicInteger();
			Thread flusher = new Thread(() -> {
				try {
					while (!stop.await(20, TimeUnit.MILLISECONDS)) {
						Chaos.command(this.server, "SCRIPT", "FLUSH");
						flushes.incrementAndGet();
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}, "chaos-script-flush");
			flusher.setDaemon(true);
			flusher.start();
			List<JobId> ids = new ArrayList<>();
			try {
				Engine jobs = producerSide.jobs();
				for (int batch = 0; batch < 4; batch++) {
					// 500 jobs: three pipelined script calls, each of which may meet
					// NOSCRIPT; the first surely does, whatever the flusher's timing
					Chaos.command(this.server, "SCRIPT", "FLUSH");
					ids.addAll(jobs.enqueues()
						.enqueueAll(queue, payloads(batch, 500), EnqueueSpec.defaults().withMaxAttempts(10)));
				}
				await("drained").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> ledger.ranAll(ids) && Chaos.locations(jobs, queue).live() == 0);
			}
			finally {
				stop.countDown();
				flusher.join(10_000);
			}
			long fallbacks = worker.jobs().executor().getEvalFallbacks();
			long producerFallbacks = producerSide.jobs().executor().getEvalFallbacks();
			verify("script-flush", worker, container, producerSide.jobs(), queue, ids, ledger, start, "flushes",
					flushes.get(), "evalFallbacks", fallbacks + producerFallbacks);
			assertThat(flushes.get()).isPositive();
			assertThat(fallbacks).as("consumer EVAL fall-backs").isPositive();
			assertThat(producerFallbacks).as("producer EVAL fall-backs").isPositive();
		}
	}

	@Test
	@Timeout(120)
	void clientPauseWhileDrainingDelaysButLosesNothing() throws Exception {
		// paused longer than the command timeout: calls time out client-side and run
		// later
		drainUnder("client-pause", Duration.ofSeconds(1),
				() -> Chaos.command(this.server, "CLIENT", "PAUSE", "1500", "ALL"));
	}

	@Test
	@Timeout(120)
	void clientKillOfEveryConnectionWhileDrainingLosesNothing() throws Exception {
		drainUnder("client-kill", Duration.ofSeconds(2),
				() -> Chaos.command(this.server, "CLIENT", "KILL", "TYPE", "normal"));
	}

	@Test
	@Timeout(120)
	void busyServerWhileDrainingLosesNothing() throws Exception {
		assumeTrue(this.debugCommand, () -> "DEBUG SLEEP needs Redis 6.2, or " + this.flavor.serverExecutable()
				+ " 7+ on PATH, started with --enable-debug-command yes; " + this.server + " is neither");
		// busier than the command timeout: calls time out client-side and run after the
		// sleep
		drainUnder("busy-server", Duration.ofMillis(500), () -> Chaos.command(this.server, "DEBUG", "SLEEP", "1"));
	}

	private void drainUnder(String fault, Duration commandTimeout, Runnable injection) throws Exception {
		String queue = fault;
		Ledger ledger = new Ledger();
		try (ChaosWorker worker = worker(commandTimeout, ledger);
				ChaosWorker producerSide = worker(Duration.ofSeconds(5), new Ledger())) {
			QueueListenerContainer container = worker.register(queue, (job, context) -> {
				// simulated work, not synchronisation
				Thread.sleep(ThreadLocalRandom.current().nextLong(1, 12));
				ledger.ran(job.id());
			});
			Engine jobs = producerSide.jobs();
			List<JobId> ids = jobs.enqueues()
				.enqueueAll(queue, payloads(0, JOBS), EnqueueSpec.defaults().withMaxAttempts(10));
			long start = System.nanoTime();
			worker.start();
			double slowest = 0;
			for (int i = 1; i <= INJECTIONS; i++) {
				int progress = i * JOBS / (INJECTIONS + 2);
				await("progress before injection " + i).atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(10))
					.until(() -> ledger.distinctRuns() >= progress);
				int ranBefore = ledger.distinctRuns();
				long injected = System.nanoTime();
				injection.run();
				await("progress after injection " + i).atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(10))
					.until(() -> ledger.distinctRuns() > ranBefore);
				slowest = Math.max(slowest, Chaos.secondsSince(injected));
			}
			await("drained").atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> ledger.ranAll(ids) && Chaos.locations(jobs, queue).live() == 0);
			verify(fault, worker, container, jobs, queue, ids, ledger, start, "injections", INJECTIONS,
					"slowestRecoverySeconds", slowest, "commandTimeoutMs", commandTimeout.toMillis());
		}
	}

	private void verify(String fault, ChaosWorker worker, QueueListenerContainer container, Engine jobs, String queue,
			List<JobId> ids, Ledger ledger, long start, Object... extra) {
		await("poller recovered").atMost(Duration.ofSeconds(20)).until(() -> container.getConsecutiveFailures() == 0);
		long ticks = worker.maintenance().getReapTicks();
		await("scheduler ticking").atMost(Duration.ofSeconds(10))
			.until(() -> worker.maintenance().getReapTicks() > ticks);
		assertThat(container.isPollerAlive()).isTrue();
		assertThat(worker.pollersAlive()).isTrue();
		worker.stop();
		AuditReport report = Chaos.audit(jobs, queue);
		long lost = ids.stream().filter((id) -> !ledger.ran(id.toString())).count();
		List<Object> figures = new ArrayList<>(List.of("server", Chaos.describe(this.server), "enqueued", ids.size(),
				"completed", Chaos.metric(jobs, queue, "completed"), "reruns", Chaos.metric(jobs, queue, "reaped"),
				"duplicateRuns", ledger.reruns(), "staleOutcomes", container.getStaleCount(), "unrecorded",
				container.getUnrecordedCount(), "lost", lost));
		figures.addAll(List.of(extra));
		figures.addAll(List.of("seconds", Chaos.secondsSince(start)));
		Chaos.report(fault, figures.toArray());
		assertThat(lost).isZero();
		assertThat(report.violations()).isEmpty();
		assertThat(report.total()).isZero();
		assertThat(report.rows()).isZero();
		assertThat(Chaos.metric(jobs, queue, "completed")).isEqualTo(ids.size());
		assertThat(Chaos.metric(jobs, queue, "dead")).isZero();
		assertThat(ledger.doubleCompletions()).isZero();
	}

	private ChaosWorker worker(Duration commandTimeout, Ledger ledger) {
		return new ChaosWorker(ChaosWorker.standalone(this.server.host(), this.server.port(), commandTimeout),
				WorkerSettings.of(this.prefix).withLease(Duration.ofSeconds(3)).withEventListeners(ledger));
	}

	private static List<String> payloads(int batch, int count) {
		List<String> payloads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			payloads.add("b" + batch + "-" + i);
		}
		return payloads;
	}

	private static int majorVersion(String version) {
		int dot = version.indexOf('.');
		try {
			return Integer.parseInt((dot > 0) ? version.substring(0, dot) : version);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

}
