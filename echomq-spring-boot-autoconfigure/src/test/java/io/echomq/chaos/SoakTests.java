package io.echomq.chaos;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.JobHandler;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.listener.ReceivedJob;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A bounded soak: a producer enqueues steadily for {@code echomq.soak.duration} (default
 * 20 seconds per server flavor, several worker restarts; docs/testing.md says when to run
 * a longer one) while two workers consume with random handler durations (a few longer
 * than the lease) and random failures (some retried to success, some always failing, so
 * dead-lettered), and the workers are restarted over and over: gracefully, abruptly
 * (stopped without drain, unfinished jobs released at once), crashed (connections cut
 * before anything else), or one container stopped and started. The run ends in a clean
 * audit and exact accounting: enqueued = completed + dead + still
 * pending/scheduled/active, every id accounted for.
 *
 * @author EchoMQ
 */
@Tag("soak")
class SoakTests extends ChaosOnEachFlavor {

	/** System property with the soak duration per flavor, an ISO-8601 duration. */
	static final String DURATION_PROPERTY = "echomq.soak.duration";

	/** The soak duration per flavor of every build, kept short for the CI budget. */
	static final String DEFAULT_DURATION = "PT20S";

	private static final String QUEUE = "soak";

	private static final int MAX_ATTEMPTS = 3;

	private final Random random = new Random();

	private final Ledger ledger = new Ledger();

	private final Counts counts = new Counts();

	private final LongAdder poisonCompletions = new LongAdder();

	private final JobEventListener poisonWatch = new JobEventListener() {

		@Override
		public void onCompleted(ReceivedJob job, Duration took) {
			if (job.payload().startsWith("poison")) {
				SoakTests.this.poisonCompletions.increment();
			}
		}

	};

	private TestServer server;

	private String prefix;

	@BeforeEach
	void startServer() {
		this.server = this.servers.start(this.flavor);
		this.prefix = Chaos.uniquePrefix();
	}

	@Test
	void soakWithRandomFailuresAndWorkerRestartsAccountsForEveryJob() {
		Duration duration = Duration.parse(System.getProperty(DURATION_PROPERTY, DEFAULT_DURATION));
		assertThat(duration).isPositive();
		// bounded by the soak plus generous time to drain and settle
		assertTimeoutPreemptively(duration.plus(Duration.ofMinutes(5)), () -> soak(duration));
	}

	private void soak(Duration duration) throws Exception {
		long start = System.nanoTime();
		long deadline = start + duration.toNanos();
		ChaosWorker[] workers = { startWorker(), startWorker() };
		try (ChaosWorker producerSide = ChaosWorker.onServer(this.server, Duration.ofSeconds(5),
				WorkerSettings.of(this.prefix))) {
			Engine jobs = producerSide.jobs();
			Producer producer = new Producer(jobs, QUEUE, Integer.MAX_VALUE, Duration.ofMillis(10), (n) -> payload(),
					(n) -> EnqueueSpec.defaults().withMaxAttempts(MAX_ATTEMPTS));
			try (producer) {
				producer.start();
				while (System.nanoTime() < deadline) {
					long mark = this.ledger.completions();
					long step = 50 + this.random.nextInt(200);
					await("progress between restarts").atMost(Duration.ofSeconds(60))
						.pollInterval(Duration.ofMillis(20))
						.until(() -> this.ledger.completions() >= mark + step || System.nanoTime() >= deadline);
					for (ChaosWorker worker : workers) {
						assertThat(worker.pollersAlive()).as("pollers of running workers alive").isTrue();
					}
					int which = this.random.nextInt(workers.length);
					workers[which] = disturb(workers[which]);
				}
			}
			double produceSeconds = Chaos.secondsSince(start);
			List<JobId> enqueued = producer.acknowledged();
			assertThat(producer.failures()).as("enqueue failures (the server stays up)").isZero();
			await("drained").atMost(Duration.ofSeconds(120))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> Chaos.locations(jobs, QUEUE).live() == 0);
			for (ChaosWorker worker : workers) {
				assertThat(worker.pollersAlive()).isTrue();
				worker.close();
			}

			AuditReport report = Chaos.audit(jobs, QUEUE);
			Chaos.Locations where = Chaos.locations(jobs, QUEUE);
			Set<String> dead = Chaos.ids(jobs, QUEUE, KeyType.DEAD);
			Set<String> completed = this.ledger.completedIds();
			long completedOnServer = Chaos.metric(jobs, QUEUE, "completed");
			Set<String> unaccounted = new HashSet<>();
			Set<String> unconfirmed = new HashSet<>();
			for (JobId id : enqueued) {
				String text = id.toString();
				if (!completed.contains(text) && !dead.contains(text)) {
					// completed with its reply lost, or lost
					(this.ledger.ran(text) ? unconfirmed : unaccounted).add(text);
				}
			}
			long poisonCompleted = this.poisonCompletions.sum();
			Map<String, Integer> deadBy = deadReasons(jobs, dead);
			Chaos.report("soak", "server", Chaos.describe(this.server), "enqueued", enqueued.size(), "completed",
					completedOnServer, "dead", where.dead(), "deadPoison", deadBy.getOrDefault("poison", 0),
					"deadFlakyOutOfAttempts", deadBy.getOrDefault("flaky", 0), "deadLeaseExpired",
					deadBy.getOrDefault("lease", 0), "live", where.live(), "reruns",
					Chaos.metric(jobs, QUEUE, "reaped"), "duplicateRuns", this.ledger.reruns(), "retried",
					Chaos.metric(jobs, QUEUE, "retried"), "staleOutcomes", this.ledger.stale(), "restarts",
					this.counts.restarts(), "graceful", this.counts.graceful, "abrupt", this.counts.abrupt, "crashes",
					this.counts.crashes, "containerRestarts", this.counts.containers, "unconfirmedCompletions",
					unconfirmed.size(), "lost", unaccounted.size(), "produceSeconds", produceSeconds, "seconds",
					Chaos.secondsSince(start));
			assertThat(report.violations()).isEmpty();
			assertThat(where.live()).isZero();
			assertThat(report.rows()).isEqualTo(where.dead());
			assertThat(Chaos.metric(jobs, QUEUE, "enqueued")).isEqualTo(enqueued.size());
			// exact accounting: every enqueued job is completed, dead or still located
			assertThat(completedOnServer + where.dead() + where.live()).isEqualTo(enqueued.size());
			assertThat(unaccounted).as("lost jobs").isEmpty();
			assertThat(completed).doesNotContainAnyElementsOf(dead);
			assertThat(completed.size() + unconfirmed.size()).isEqualTo(completedOnServer);
			assertThat(this.ledger.doubleCompletions()).as("a job completed twice").isZero();
			assertThat(poisonCompleted).as("always-failing jobs completed").isZero();
			assertThat(this.counts.restarts()).isPositive();
		}
		finally {
			for (ChaosWorker worker : workers) {
				worker.close();
			}
		}
	}

	private static Map<String, Integer> deadReasons(Engine jobs, Set<String> dead) {
		Map<String, Integer> reasons = new HashMap<>();
		for (String id : dead) {
			String error = jobs.executor()
				.getTemplate()
				.<String, String>opsForHash()
				.get(jobs.keyspace().jobKey(QUEUE, id), "last_error");
			String reason = (error == null) ? "none" : error.contains("poison") ? "poison"
					: error.contains("flaky") ? "flaky" : error.startsWith("lease expired") ? "lease" : "other";
			reasons.merge(reason, 1, Integer::sum);
		}
		return reasons;
	}

	private ChaosWorker startWorker() {
		// half the workers drain for 2 s on stop, the other half stop without draining
		Duration drain = this.random.nextBoolean() ? Duration.ofSeconds(2) : Duration.ZERO;
		ChaosWorker worker = ChaosWorker.onServer(this.server, Duration.ofSeconds(5),
				WorkerSettings.of(this.prefix)
					.withConcurrency(6)
					.withShutdownTimeout(drain)
					.withEventListeners(this.ledger, this.poisonWatch));
		worker.register(QUEUE, handler());
		worker.start();
		return worker;
	}

	private ChaosWorker disturb(ChaosWorker worker) {
		int action = this.random.nextInt(4);
		switch (action) {
			case 0 -> {
				QueueListenerContainer container = worker.containers().get(QUEUE);
				container.stop();
				container.start();
				this.counts.containers++;
				return worker;
			}
			case 1 -> {
				worker.crash();
				this.counts.crashes++;
			}
			default -> {
				worker.close();
				if (worker.drainsOnStop()) {
					this.counts.graceful++;
				}
				else {
					this.counts.abrupt++;
				}
			}
		}
		return startWorker();
	}

	private JobHandler handler() {
		return (job, context) -> {
			String[] parts = job.payload().split(":");
			// simulated work, not synchronisation
			Thread.sleep(Long.parseLong(parts[1]));
			switch (parts[0]) {
				case "flaky" -> {
					if (context.attempt() < Long.parseLong(parts[2])) {
						throw new IllegalStateException("flaky attempt " + context.attempt());
					}
				}
				case "poison" -> throw new IllegalStateException("poison");
				default -> {
				}
			}
			this.ledger.ran(job.id());
		};
	}

	private String payload() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int kind = random.nextInt(100);
		int shape = random.nextInt(100);
		long work = (shape < 90) ? random.nextLong(0, 60) : (shape < 98) ? random.nextLong(100, 400) : 2_500;
		if (kind < 80) {
			return "ok:" + work + ":0";
		}
		if (kind < 92) {
			return "flaky:" + work + ":" + random.nextInt(2, MAX_ATTEMPTS + 1);
		}
		return "poison:" + work + ":0";
	}

	/**
	 * What the chaos thread did; touched by that thread only.
	 */
	private static final class Counts {

		int graceful;

		int abrupt;

		int crashes;

		int containers;

		int restarts() {
			return this.graceful + this.abrupt + this.crashes + this.containers;
		}

	}

}
