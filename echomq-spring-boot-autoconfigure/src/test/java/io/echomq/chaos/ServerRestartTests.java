package io.echomq.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.JobHandler;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The server killed with {@code SIGKILL} mid-run and restarted on the same port and
 * directory: with {@code appendonly yes} and {@code appendfsync always} no acknowledged
 * enqueue is lost; without persistence the data is gone, but clients reconnect and new
 * jobs flow.
 *
 * @author EchoMQ
 */
@Tag("chaos")
class ServerRestartTests extends ChaosOnEachFlavor {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	private static final String QUEUE = "restarted";

	private final String prefix = Chaos.uniquePrefix();

	private TestServer server;

	@Test
	@Timeout(150)
	void killedServerWithFsyncedAppendOnlyFileLosesNoAcknowledgedJob() throws Exception {
		RedisServerProcess process = startServer(
				ServerOptions.builder().appendOnly(true).appendFsync("always").build());
		Ledger ledger = new Ledger();
		long start = System.nanoTime();
		try (ChaosWorker consumer = worker(ledger); ChaosWorker producerSide = worker(new Ledger())) {
			QueueListenerContainer container = startConsumer(consumer, ledger);
			Engine jobs = producerSide.jobs();
			try (Producer producer = Producer.plain(jobs, QUEUE, 800, Duration.ofMillis(4), 10).start()) {
				await().atMost(Duration.ofSeconds(30)).until(() -> producer.acknowledgedCount() >= 250);
				process.kill();
				int acknowledgedAtKill = producer.acknowledgedCount();
				long killed = System.nanoTime();
				await("clients notice").atMost(Duration.ofSeconds(20))
					.until(() -> producer.failures() > 0 && container.getConsecutiveFailures() > 0);
				process.restart();
				double downSeconds = Chaos.secondsSince(killed);
				assertThat(producer.awaitDone(Duration.ofSeconds(60))).as("producer finished").isTrue();
				List<JobId> acknowledged = producer.acknowledged();
				await("drained").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(50))
					.until(() -> ledger.ranAll(acknowledged) && Chaos.locations(jobs, QUEUE).live() == 0);
				await("poller recovered").atMost(Duration.ofSeconds(20))
					.until(() -> container.getConsecutiveFailures() == 0);
				assertThat(container.isPollerAlive()).isTrue();
				consumer.stop();

				AuditReport report = Chaos.audit(jobs, QUEUE);
				Set<String> acknowledgedIds = ids(acknowledged);
				long lost = acknowledgedIds.stream().filter((id) -> !ledger.ran(id)).count();
				Set<String> ambiguous = new HashSet<>(ledger.ranIds());
				ambiguous.removeAll(acknowledgedIds);
				Chaos.report("server-kill-aof", "server", Chaos.describe(this.server), "enqueued", acknowledged.size(),
						"enqueueErrors", producer.failures(), "ambiguousWritten", ambiguous.size(), "completed",
						Chaos.metric(jobs, QUEUE, "completed"), "acknowledgedAtKill", acknowledgedAtKill, "reruns",
						Chaos.metric(jobs, QUEUE, "reaped"), "duplicateRuns", ledger.reruns(), "lost", lost,
						"downSeconds", downSeconds, "evalFallbacks", consumer.jobs().executor().getEvalFallbacks(),
						"seconds", Chaos.secondsSince(start));
				assertThat(lost).isZero();
				assertThat(report.violations()).isEmpty();
				assertThat(report.total()).isZero();
				assertThat(report.rows()).isZero();
				assertThat(Chaos.metric(jobs, QUEUE, "completed")).isEqualTo(acknowledged.size() + ambiguous.size());
				assertThat(consumer.jobs().executor().getEvalFallbacks()).as("script cache empty after restart")
					.isPositive();
				assertThat(container.isRunning()).isFalse();
				assertThat(ledger.doubleCompletions()).isZero();
			}
		}
	}

	@Test
	@Timeout(120)
	void killedServerWithoutPersistenceLosesItsDataButClientsReconnectAndNewJobsFlow() throws Exception {
		RedisServerProcess process = startServer(ServerOptions.defaults());
		Ledger ledger = new Ledger();
		long start = System.nanoTime();
		try (ChaosWorker consumer = worker(ledger); ChaosWorker producerSide = worker(new Ledger())) {
			QueueListenerContainer container = startConsumer(consumer, ledger);
			Engine jobs = producerSide.jobs();
			List<JobId> before = jobs.enqueues().enqueueAll(QUEUE, payloads("before", 600), EnqueueSpec.defaults());
			await().atMost(Duration.ofSeconds(30)).until(() -> ledger.distinctRuns() >= 100);
			process.kill();
			int ranAtKill = ledger.distinctRuns();
			await("poller notices").atMost(Duration.ofSeconds(20)).until(() -> container.getConsecutiveFailures() > 0);
			assertThat(container.isPollerAlive()).isTrue();
			process.restart();
			long restarted = System.nanoTime();
			List<JobId> after = await("enqueue accepted again").atMost(Duration.ofSeconds(20))
				.ignoreExceptions()
				.until(() -> jobs.enqueues().enqueueAll(QUEUE, payloads("after", 100), EnqueueSpec.defaults()),
						(ids) -> true);
			await("new jobs complete").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> ledger.ranAll(after) && Chaos.locations(jobs, QUEUE).live() == 0);
			double recovery = Chaos.secondsSince(restarted);
			await("poller recovered").atMost(Duration.ofSeconds(20))
				.until(() -> container.getConsecutiveFailures() == 0);
			assertThat(container.isPollerAlive()).isTrue();
			consumer.stop();

			AuditReport report = Chaos.audit(jobs, QUEUE);
			long lost = before.stream().filter((id) -> !ledger.ran(id.toString())).count();
			Chaos.report("server-kill-no-persistence", "server", Chaos.describe(this.server), "enqueued",
					before.size() + after.size(), "ranBeforeKill", ranAtKill, "lostWithData", lost, "newJobs",
					after.size(), "newCompleted", after.stream().filter((id) -> ledger.ran(id.toString())).count(),
					"recoverySeconds", recovery, "seconds", Chaos.secondsSince(start));
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
			assertThat(lost).as("jobs still queued when the data went away").isPositive();
			assertThat(Chaos.metric(jobs, QUEUE, "completed")).as("counted since the restart")
				.isGreaterThanOrEqualTo(after.size());
			assertThat(consumer.jobs().executor().getEvalFallbacks()).isPositive();
		}
	}

	private RedisServerProcess startServer(ServerOptions options) {
		this.server = this.servers.start(this.flavor, options);
		return this.server.process().orElseThrow();
	}

	private ChaosWorker worker(Ledger ledger) {
		return ChaosWorker.onServer(this.server, COMMAND_TIMEOUT,
				WorkerSettings.of(this.prefix).withConcurrency(4).withEventListeners(ledger));
	}

	private static QueueListenerContainer startConsumer(ChaosWorker consumer, Ledger ledger) {
		QueueListenerContainer container = consumer.register(QUEUE, handler(ledger));
		consumer.start();
		return container;
	}

	private static JobHandler handler(Ledger ledger) {
		return (job, context) -> {
			// simulated work, not synchronisation
			Thread.sleep(ThreadLocalRandom.current().nextLong(5, 25));
			ledger.ran(job.id());
		};
	}

	private static List<String> payloads(String name, int count) {
		List<String> payloads = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			payloads.add(name + i);
		}
		return payloads;
	}

	private static Set<String> ids(List<JobId> ids) {
		Set<String> result = new HashSet<>();
		ids.forEach((id) -> result.add(id.toString()));
		return result;
	}

}
