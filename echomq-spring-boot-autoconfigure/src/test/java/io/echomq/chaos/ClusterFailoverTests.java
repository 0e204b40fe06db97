package io.echomq.chaos;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A three-master cluster with one replica each loses the master that owns the queue's
 * slot while producers and a consuming container run. The replica takes over (cluster
 * node timeout 2 s), Lettuce's topology refresh finds it, and work goes on: the workers'
 * connections are the ones an application gets from {@code spring.data.redis.cluster.*}
 * (see {@link ChaosWorker#onCluster}), refresh settings and all. Replication is
 * asynchronous, so a write the old master acknowledged but had not yet sent to its
 * replica can be lost: the test measures how many acknowledged enqueues were lost and
 * asserts that each was acknowledged within a short window before the kill.
 *
 * @author EchoMQ
 */
@Tag("chaos")
class ClusterFailoverTests extends ChaosOnEachFlavor {

	private static final int JOBS = 1200;

	/**
	 * The most a lost enqueue may precede the kill: the replication window, with slack.
	 */
	private static final long REPLICATION_WINDOW_MS = 1000;

	private final String prefix = Chaos.uniquePrefix();

	private LocalCluster cluster;

	@Test
	@Timeout(180)
	void killedMasterOfTheQueueSlotFailsOverAndWorkGoesOn() throws Exception {
		this.cluster = this.servers.cluster(this.flavor, 3, 1);
		String queue = "failover";
		Ledger ledger = new Ledger();
		long start = System.nanoTime();
		try (ChaosWorker consumer = worker(ledger); ChaosWorker producerSide = worker(new Ledger())) {
			Engine jobs = producerSide.jobs();
			RedisServerProcess master = Chaos.masterOf(this.cluster, jobs, queue);
			QueueListenerContainer container = consumer.register(queue, (job, context) -> {
				// simulated work, not synchronisation
				Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10));
				ledger.ran(job.id());
			});
			consumer.start();
			try (Producer producer = Producer.plain(jobs, queue, JOBS, Duration.ofMillis(5), 10)
				.pauseAfterFailure(Duration.ofMillis(100))
				.start()) {
				await().atMost(Duration.ofSeconds(30)).until(() -> producer.acknowledgedCount() >= JOBS / 4);
				long killedAt = System.currentTimeMillis();
				long killed = System.nanoTime();
				int acknowledgedAtKill = producer.acknowledgedCount();
				this.cluster.kill(master);
				this.cluster.awaitServing(Duration.ofSeconds(30));
				double failover = Chaos.secondsSince(killed);
				await("producing again").atMost(Duration.ofSeconds(30))
					.until(() -> producer.acknowledgedCount() > acknowledgedAtKill + 50);
				double producerGap = Chaos.secondsSince(killed);
				assertThat(producer.awaitDone(Duration.ofSeconds(90))).as("producer finished").isTrue();
				await("drained").atMost(Duration.ofSeconds(60))
					.pollInterval(Duration.ofMillis(100))
					.ignoreExceptions()
					.until(() -> Chaos.locations(jobs, queue).live() == 0);
				await("poller recovered").atMost(Duration.ofSeconds(20))
					.until(() -> container.getConsecutiveFailures() == 0);
				assertThat(container.isPollerAlive()).isTrue();
				consumer.stop();

				List<JobId> acknowledged = producer.acknowledged();
				Set<String> located = Chaos.locatedIds(jobs, queue);
				List<JobId> lost = acknowledged.stream()
					.filter((id) -> !ledger.ran(id.toString()) && !located.contains(id.toString()))
					.toList();
				Set<String> ackedIds = new HashSet<>();
				acknowledged.forEach((id) -> ackedIds.add(id.toString()));
				long ambiguous = ledger.ranIds().stream().filter((id) -> !ackedIds.contains(id)).count();
				long lostAfterKill = lost.stream().filter((id) -> producer.acknowledgedAt(id) > killedAt).count();
				long lostBeforeWindow = lost.stream()
					.filter((id) -> producer.acknowledgedAt(id) < killedAt - REPLICATION_WINDOW_MS)
					.count();
				AuditReport report = Chaos.audit(jobs, queue);
				Chaos.report("cluster-failover", "server", Chaos.describeCluster(master), "enqueued",
						acknowledged.size(), "enqueueErrors", producer.failures(), "ambiguousWritten", ambiguous,
						"completed", ledger.distinctRuns(), "reruns", Chaos.metric(jobs, queue, "reaped"),
						"duplicateRuns", ledger.reruns(), "lost", lost.size(), "failoverSeconds", failover,
						"producerGapSeconds", producerGap, "seconds", Chaos.secondsSince(start));
				assertThat(report.violations()).isEmpty();
				assertThat(report.total()).isZero();
				assertThat(lostAfterKill).as("lost jobs acknowledged after the kill").isZero();
				assertThat(lostBeforeWindow).as("lost jobs acknowledged long before the kill").isZero();
				assertThat(acknowledged.subList(acknowledgedAtKill + 50, acknowledged.size()))
					.as("jobs enqueued after the failover all ran")
					.allSatisfy((id) -> assertThat(ledger.ran(id.toString())).isTrue());
				assertThat(ledger.doubleCompletions()).isZero();
			}
		}
	}

	private ChaosWorker worker(Ledger ledger) {
		return ChaosWorker.onCluster(this.cluster.seedNodes(), Duration.ofSeconds(1),
				WorkerSettings.of(this.prefix).withEventListeners(ledger));
	}

}
