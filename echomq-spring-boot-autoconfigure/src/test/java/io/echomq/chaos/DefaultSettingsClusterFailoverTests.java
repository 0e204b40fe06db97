package io.echomq.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.JobContext;
import io.echomq.test.OwnedServers;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The failover an operator meets first, with the settings a user gets: two applications
 * whose only Redis setting is {@code spring.data.redis.cluster.nodes} consume a queue of
 * six partitions on a cluster of three masters with one replica each, and the master of
 * two partitions is killed ({@code kill -9}) with a backlog on them. Once the replica is
 * promoted, the partitions resume on it by themselves: every job runs, none is lost, and
 * the longest stall is reported.
 *
 * @author EchoMQ
 */
@Tag("chaos")
class DefaultSettingsClusterFailoverTests {

	private static final String QUEUE = "defaults";

	private static final int PARTITIONS = 6;

	private static final int JOBS = 3000;

	/**
	 * Most the completions may stop for: the failover (cluster-node-timeout 2 s, then the
	 * election) plus the client finding the promoted replica, with slack for a busy
	 * machine. Without a topology refresh the partitions never resume.
	 */
	private static final Duration STALL_BOUND = Duration.ofSeconds(20);

	@RegisterExtension
	final OwnedServers servers = new OwnedServers();

	private final List<ConfigurableApplicationContext> applications = new ArrayList<>();

	private LocalCluster cluster;

	@Test
	@Timeout(180)
	void partitionsOfAKilledMasterResumeOnTheReplicaWithBootsDefaultClientSettings() throws Exception {
		this.cluster = this.servers.cluster(ServerFlavor.VALKEY, 3, 1);
		String prefix = Chaos.uniquePrefix();
		Queue<Run> runs = new ConcurrentLinkedQueue<>();
		ConfigurableApplicationContext first = start(prefix, "first", runs);
		start(prefix, "second", runs);
		EchoMqTemplate template = first.getBean(EchoMqTemplate.class);
		Engine jobs = first.getBean(Engine.class);
		QueuePartitions partitions = first.getBean(QueuePartitioning.class).forQueue(QUEUE);
		assertThat(partitions.count()).isEqualTo(PARTITIONS);
		RedisServerProcess master = Chaos.masterOf(this.cluster, jobs, partitions.name(0));
		Set<Integer> onKilled = Chaos.partitionsOn(this.cluster, master, jobs, partitions);
		assertThat(onKilled).as("partitions on the killed master").hasSize(2);

		List<JobId> enqueued = new ArrayList<>();
		for (int batch = 0; batch < JOBS / 500; batch++) {
			enqueued.addAll(template.enqueueAll(QUEUE, IntStream.range(0, 500).mapToObj((n) -> "j" + n).toList()));
		}
		// the backlog is on the replica before the kill, so a job lost would be lost by
		// EchoMQ and not by asynchronous replication
		awaitReplicated(master);
		await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= JOBS / 6);
		long killed = System.nanoTime();
		this.cluster.kill(master);
		this.cluster.awaitServing(Duration.ofSeconds(30));
		double failover = Chaos.secondsSince(killed);

		Set<String> ran = new HashSet<>();
		await("every job ran").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			runs.forEach((run) -> ran.add(run.id().toString()));
			return ran.size() == JOBS;
		});
		long longestStall = longestGap(runs, killed, (run) -> true);
		long killedPartitionsStall = longestGap(runs, killed,
				(run) -> onKilled.contains(partitions.partitionOf(run.id())));
		// a job whose completion the failover lost (not replicated, or rejected and given
		// up) is active on the replica until its lease (30 s by default) expires, then
		// reaped and run again
		await("every partition drained").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> partitions.names()
				.stream()
				.mapToLong((name) -> Chaos.locations(jobs, name).total())
				.sum() == 0);
		List<AuditReport> audits = partitions.names().stream().map((name) -> Chaos.audit(jobs, name)).toList();
		long reaped = partitions.names().stream().mapToLong((name) -> Chaos.metric(jobs, name, "reaped")).sum();
		this.applications.forEach(ConfigurableApplicationContext::close);

		long lost = enqueued.stream().filter((id) -> !ran.contains(id.toString())).count();
		long runsByFirst = runs.stream().filter((run) -> run.application().equals("first")).count();
		Chaos.report("default-settings-cluster-failover", "server", Chaos.describeCluster(master), "partitions",
				PARTITIONS, "enqueued", enqueued.size(), "completed", ran.size(), "runs", runs.size(), "lost", lost,
				"reruns", reaped, "duplicateRuns", runs.size() - ran.size(), "runsByFirst", runsByFirst, "runsBySecond",
				runs.size() - runsByFirst, "failoverMillis", Math.round(failover * 1000), "killedPartitionsStallMillis",
				Math.round(killedPartitionsStall / 1e6), "longestStallMillis", Math.round(longestStall / 1e6));
		assertThat(lost).as("jobs that never ran").isZero();
		assertThat(Duration.ofNanos(longestStall)).as("longest time without a completion after the kill")
			.isLessThan(STALL_BOUND);
		assertThat(Duration.ofNanos(killedPartitionsStall))
			.as("longest time without a completion on the killed master's partitions")
			.isLessThan(STALL_BOUND);
		assertThat(audits).allSatisfy((report) -> {
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isZero();
		});
	}

	private static long longestGap(Queue<Run> runs, long killed, Predicate<Run> which) {
		return Chaos.longestGap(runs.stream().filter(which).map(Run::at).toList(), killed, Long.MAX_VALUE);
	}

	private ConfigurableApplicationContext start(String prefix, String name, Queue<Run> runs) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.initializers((ctx) -> ((GenericApplicationContext) ctx).registerBean(Listener.class,
					() -> new Listener(name, runs)))
			.run("--spring.data.redis.cluster.nodes=" + String.join(",", this.cluster.seedNodes()),
					"--spring.application.name=" + name, "--echomq.key-prefix=" + prefix,
					"--echomq.queues." + QUEUE + ".partitions=" + PARTITIONS);
		this.applications.add(this.servers.own(context));
		return context;
	}

	/**
	 * Wait until every replica of the master acknowledged what the master has written.
	 */
	private static void awaitReplicated(RedisServerProcess master) {
		long written = replication(master).get("master_repl_offset").longValue();
		await("backlog replicated").atMost(Duration.ofSeconds(10)).until(() -> {
			Map<String, Long> replication = replication(master);
			return replication.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().startsWith("slave"))
				.allMatch((entry) -> entry.getValue() >= written) && replication.containsKey("slave0");
		});
	}

	private static Map<String, Long> replication(RedisServerProcess master) {
		try (RespClient client = master.openClient()) {
			Map<String, Long> offsets = new HashMap<>();
			for (String line : client.commandForString("INFO", "replication").split("\r?\n")) {
				if (line.startsWith("master_repl_offset:")) {
					offsets.put("master_repl_offset", Long.parseLong(line.substring(line.indexOf(':') + 1).trim()));
				}
				else if (line.matches("slave\\d+:.*")) {
					String offset = line.replaceAll(".*offset=(\\d+).*", "$1");
					offsets.put(line.substring(0, line.indexOf(':')), Long.parseLong(offset));
				}
			}
			return offsets;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * One handler run: the job, the application that ran it, and when
	 * ({@link System#nanoTime()}).
	 */
	record Run(JobId id, String application, long at) {

	}

	/**
	 * An application as a user writes it: auto-configuration and one listener.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

	/**
	 * The listener of the partitioned queue.
	 */
	static class Listener {

		private final String application;

		private final Queue<Run> runs;

		Listener(String application, Queue<Run> runs) {
			this.application = application;
			this.runs = runs;
		}

		@EchoJob(queue = QUEUE)
		void handle(String payload, JobContext context) throws InterruptedException {
			// simulated work, not synchronisation
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, 6));
			this.runs.add(new Run(context.id(), this.application, System.nanoTime()));
		}

	}

}
