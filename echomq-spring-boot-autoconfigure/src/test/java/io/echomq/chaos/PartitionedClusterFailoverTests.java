package io.echomq.chaos;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.PartitionUnavailableException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.OwnedServers;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue of six partitions on a cluster of three masters with one replica each loses the
 * master of two of its partitions while a producer and one consuming container work
 * through a backlog. The four partitions on the other masters keep draining while the
 * replica takes over; after the failover every acknowledged job ran or is in a location
 * (except, as in {@link ClusterFailoverTests}, an enqueue the old master acknowledged
 * within the replication window before the kill), and the audit of each partition is
 * clean.
 *
 * @author EchoMQ
 */
@Tag("chaos")
class PartitionedClusterFailoverTests {

	private static final int JOBS = 1800;

	private static final int PARTITIONS = 6;

	private static final String QUEUE = "partitioned";

	private static final QueuePartitioning PARTITIONING = QueuePartitioning.of(Map.of(QUEUE, PARTITIONS));

	/**
	 * Jobs enqueued before the consumer starts, so every partition has work when the
	 * master dies.
	 */
	private static final int BACKLOG = 6000;

	private static final long REPLICATION_WINDOW_MS = 1000;

	private static final int LIVE_PROGRESS = 25;

	/**
	 * From the first command timeout of a call to the dead master until shortly before
	 * the other nodes can mark it failed (cluster-node-timeout, 2 s): the live masters
	 * serve.
	 */
	private static final Duration TIMEOUTS_FROM = Duration.ofMillis(1000);

	private static final Duration TIMEOUTS_UNTIL = Duration.ofMillis(1800);

	/**
	 * Well before the other nodes can mark the dead master failed (cluster-node-timeout,
	 * 2 s), after which the whole cluster answers CLUSTERDOWN; a poller that waits out
	 * the command timeout (1 s) of each of the two dead partitions in turn does not make
	 * it.
	 */
	private static final double LIVE_PROGRESS_BOUND_SECONDS = 1.5;

	@RegisterExtension
	final OwnedServers servers = new OwnedServers();

	private final String prefix = Chaos.uniquePrefix();

	private LocalCluster cluster;

	@BeforeEach
	void startCluster() {
		this.cluster = this.servers.cluster(ServerFlavor.VALKEY, 3, 1);
	}

	@Test
	@Timeout(240)
	void killedMasterOfTwoPartitionsLeavesTheOthersDrainingAndLosesNothingAcknowledged() throws Exception {
		QueuePartitions partitions = PARTITIONING.forQueue(QUEUE);
		Ledger ledger = new Ledger();
		long start = System.nanoTime();
		try (ChaosWorker consumer = worker(ledger);
				ChaosWorker producerSide = worker(new Ledger());
				ChaosWorker loaderSide = ChaosWorker.onCluster(this.cluster.seedNodes(), Duration.ofSeconds(10),
						WorkerSettings.of(this.prefix))) {
			consumer.partition(PARTITIONING);
			Engine jobs = producerSide.jobs();
			EchoMqTemplate template = template(jobs, PARTITIONING);
			EchoMqTemplate loader = template(loaderSide.jobs(), PARTITIONING);
			RedisServerProcess master = Chaos.masterOf(this.cluster, jobs, partitions.name(0));
			Set<Integer> onKilled = Chaos.partitionsOn(this.cluster, master, jobs, partitions);
			assertThat(onKilled).as("partitions on the killed master").hasSize(2);
			Map<Integer, AtomicInteger> runsByPartition = new ConcurrentHashMap<>();
			java.util.Queue<Long> liveRunsAt = new java.util.concurrent.ConcurrentLinkedQueue<>();
			QueueListenerContainer container = consumer.register(QUEUE, (job, context) -> {
				// simulated work, not synchronisation
				Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10));
				ledger.ran(job.id());
				runsByPartition.computeIfAbsent(partitions.partitionOf(job.id()), (p) -> new AtomicInteger())
					.incrementAndGet();
				if (!onKilled.contains(partitions.partitionOf(job.id()))) {
					liveRunsAt.add(System.nanoTime());
				}
			});
			Producer producer = Producer.through(template, QUEUE, JOBS, Duration.ofMillis(3));
			for (int batch = 0; batch < BACKLOG / 500; batch++) {
				List<String> payloads = java.util.stream.IntStream.range(0, 500).mapToObj((n) -> "b" + n).toList();
				long at = System.currentTimeMillis();
				for (JobId id : loader.enqueueAll(QUEUE, payloads)) {
					producer.acknowledge(id, at);
				}
			}
			consumer.start();
			producer.start();
			try {
				await().atMost(Duration.ofSeconds(30)).until(() -> ledger.distinctRuns() >= BACKLOG / 6);
				long killedAt = System.currentTimeMillis();
				long killed = System.nanoTime();
				int acknowledgedAtKill = producer.acknowledgedCount();
				this.cluster.kill(master);
				String keyOnKilled = keyOf(partitions, onKilled::contains);
				java.util.concurrent.CompletableFuture<Throwable> keyed = java.util.concurrent.CompletableFuture
					.supplyAsync(() -> {
						try {
							template.enqueue(QUEUE, "keyed", EnqueueOptions.defaults().withPartitionKey(keyOnKilled));
							return null;
						}
						catch (RuntimeException ex) {
							return ex;
						}
					});
				java.util.concurrent.CompletableFuture<Double> failedOver = java.util.concurrent.CompletableFuture
					.supplyAsync(() -> {
						this.cluster.awaitServing(Duration.ofSeconds(30));
						return Chaos.secondsSince(killed);
					});
				int liveRunsAtKill = liveRuns(runsByPartition, onKilled);
				await("live partitions drain during the failover").atMost(Duration.ofSeconds(10))
					.until(() -> liveRuns(runsByPartition, onKilled) >= liveRunsAtKill + LIVE_PROGRESS);
				double liveProgress = Chaos.secondsSince(killed);
				double failover = failedOver.get(40, TimeUnit.SECONDS);
				assertThat(producer.awaitDone(Duration.ofSeconds(90))).as("producer finished").isTrue();
				await("drained").atMost(Duration.ofSeconds(90))
					.pollInterval(Duration.ofMillis(200))
					.ignoreExceptions()
					.until(() -> partitions.names()
						.stream()
						.mapToLong((name) -> Chaos.locations(jobs, name).live())
						.sum() == 0);
				await("poller recovered").atMost(Duration.ofSeconds(20))
					.until(() -> container.getConsecutiveFailures() == 0);
				consumer.stop();

				Set<String> located = new HashSet<>();
				partitions.names().forEach((name) -> located.addAll(Chaos.locatedIds(jobs, name)));
				List<JobId> lost = producer.acknowledged()
					.stream()
					.filter((id) -> !ledger.ran(id.toString()) && !located.contains(id.toString()))
					.toList();
				long lostAfterKill = lost.stream().filter((id) -> producer.acknowledgedAt(id) > killedAt).count();
				long lostBeforeWindow = lost.stream()
					.filter((id) -> producer.acknowledgedAt(id) < killedAt - REPLICATION_WINDOW_MS)
					.count();
				long reaped = 0;
				for (String name : partitions.names()) {
					AuditReport report = Chaos.audit(jobs, name);
					assertThat(report.violations()).as("audit of %s", name).isEmpty();
					assertThat(report.total()).as("jobs left on %s", name).isZero();
					reaped += Chaos.metric(jobs, name, "reaped");
				}
				long duringTimeouts = liveRunsAt.stream()
					.filter((at) -> at - killed >= TIMEOUTS_FROM.toNanos() && at - killed < TIMEOUTS_UNTIL.toNanos())
					.count();
				Chaos.report("partitioned-cluster-failover", "server", Chaos.describeCluster(master), "partitions",
						PARTITIONS, "enqueued", producer.acknowledgedCount(), "enqueueErrors", producer.failures(),
						"completed", ledger.distinctRuns(), "reruns", reaped, "duplicateRuns", ledger.reruns(), "lost",
						lost.size(), "liveProgressMillis", Math.round(liveProgress * 1000), "liveRunsDuringTimeouts",
						duringTimeouts, "failoverMillis", Math.round(failover * 1000), "seconds",
						Chaos.secondsSince(start));
				// the live masters serve until the others mark the dead one failed
				// (cluster-node-timeout,
				// 2 s), then the whole cluster answers CLUSTERDOWN until the replica is
				// promoted; a
				// consumer that never waits out a call to the dead master (1 s command
				// timeout) on its
				// way to the live partitions gets LIVE_PROGRESS jobs of theirs done well
				// within that
				assertThat(liveProgress).as("seconds until the live partitions ran %d jobs", LIVE_PROGRESS)
					.isLessThan(LIVE_PROGRESS_BOUND_SECONDS)
					.isLessThan(failover);
				assertThat(duringTimeouts)
					.as("live jobs run %s-%s after the kill, while the calls to the dead master time out",
							TIMEOUTS_FROM, TIMEOUTS_UNTIL)
					.isPositive();
				assertThat(keyed.get(10, TimeUnit.SECONDS)).as("keyed enqueue to a partition of the killed master")
					.isInstanceOf(PartitionUnavailableException.class)
					.hasMessageContaining("of queue '" + QUEUE + "'")
					.hasMessageContaining("does not fail over");
				assertThat(producer.failures())
					.as("keyless enqueues that failed (they fail over): %s", producer.failureMessages())
					.isZero();
				assertThat(lostAfterKill).as("lost jobs acknowledged after the kill").isZero();
				assertThat(lostBeforeWindow).as("lost jobs acknowledged long before the kill").isZero();
				assertThat(producer.acknowledged().stream().skip(acknowledgedAtKill + 300).toList())
					.as("jobs enqueued after the failover all ran")
					.allSatisfy((id) -> assertThat(ledger.ran(id.toString())).isTrue());
				assertThat(ledger.doubleCompletions()).isZero();
			}
			finally {
				producer.close();
			}
		}
	}

	@Test
	@Timeout(120)
	void slotsOfJobsOnTheKilledMasterAreGivenBackWhileTheirCompletionsWaitOutItsTimeouts() throws Exception {
		QueuePartitions partitions = PARTITIONING.forQueue(QUEUE);
		try (ChaosWorker consumer = worker(new Ledger()); ChaosWorker producerSide = worker(new Ledger())) {
			consumer.partition(PARTITIONING);
			Engine jobs = producerSide.jobs();
			EchoMqTemplate template = template(jobs, PARTITIONING);
			RedisServerProcess master = Chaos.masterOf(this.cluster, jobs, partitions.name(0));
			String keyOnKilled = keyOf(partitions, (partition) -> partition == 0);
			String keyOnLive = keyOf(partitions,
					(partition) -> Chaos.masterOf(this.cluster, jobs, partitions.name(partition)) != master);
			CountDownLatch kill = new CountDownLatch(1);
			AtomicInteger held = new AtomicInteger();
			java.util.Queue<Long> liveRunsAt = new java.util.concurrent.ConcurrentLinkedQueue<>();
			int concurrency = WorkerSettings.of(this.prefix).concurrency();
			consumer.register(QUEUE, (job, context) -> {
				if (partitions.partitionOf(job.id()) == 0) {
					held.incrementAndGet();
					kill.await();
				}
				else {
					liveRunsAt.add(System.nanoTime());
				}
			});
			for (int n = 0; n < concurrency; n++) {
				template.enqueue(QUEUE, "held", EnqueueOptions.defaults().withPartitionKey(keyOnKilled));
			}
			consumer.start();
			// every slot holds a job of the partition whose master dies; the live
			// partition's jobs wait for a slot
			await().atMost(Duration.ofSeconds(20)).until(() -> held.get() == concurrency);
			for (int n = 0; n < LIVE_PROGRESS; n++) {
				template.enqueue(QUEUE, "live", EnqueueOptions.defaults().withPartitionKey(keyOnLive));
			}
			this.cluster.kill(master);
			long killed = System.nanoTime();
			kill.countDown();
			// the held jobs' completions time out (1 s) and are sent again, each up to 4
			// times, until the replica
			// takes over; their slots are given back once the batch had no reply, so the
			// live jobs run before
			// the cluster marks the master failed (cluster-node-timeout, 2 s)
			await().atMost(Duration.ofSeconds(30)).until(() -> liveRunsAt.size() >= LIVE_PROGRESS);
			double liveProgress = (liveRunsAt.stream().sorted().skip(LIVE_PROGRESS - 1).findFirst().orElseThrow()
					- killed) / 1e9;
			assertThat(liveProgress).as("seconds until the live partition ran %d jobs", LIVE_PROGRESS)
				.isLessThan(LIVE_PROGRESS_BOUND_SECONDS + 0.3);
		}
	}

	private static EchoMqTemplate template(Engine jobs, QueuePartitioning partitioning) {
		EchoMqTemplate template = new EchoMqTemplate(jobs, new JacksonPayloadConverter(JsonMapper.builder().build()),
				4096, (name) -> 10, List.of());
		template.setPartitioning(partitioning);
		return template;
	}

	private static String keyOf(QueuePartitions partitions, java.util.function.IntPredicate partition) {
		return java.util.stream.IntStream.range(0, 10_000)
			.mapToObj((n) -> "key-" + n)
			.filter((key) -> partition.test(partitions.partitionForKey(key)))
			.findFirst()
			.orElseThrow();
	}

	private static int liveRuns(Map<Integer, AtomicInteger> runs, Set<Integer> onKilled) {
		return runs.entrySet()
			.stream()
			.filter((entry) -> !onKilled.contains(entry.getKey()))
			.mapToInt((entry) -> entry.getValue().get())
			.sum();
	}

	private ChaosWorker worker(Ledger ledger) {
		return ChaosWorker.onCluster(this.cluster.seedNodes(), Duration.ofSeconds(1),
				WorkerSettings.of(this.prefix).withEventListeners(ledger));
	}

}
