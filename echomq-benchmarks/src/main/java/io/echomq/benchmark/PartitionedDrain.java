package io.echomq.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.echomq.EchoMqTemplate;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerEndpoint;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Drain throughput of one queue with 1, 3 and 6 partitions on a local cluster of three
 * masters, one listener container at concurrency 16 with no-op handlers, and what each
 * master's server process spent ({@code INFO cpu}) per job of its partitions. Run with
 * {@code java -jar echomq-benchmarks.jar partitions [jobs] [runs]}.
 *
 * @author EchoMQ
 */
final class PartitionedDrain {

	private static final int[] PARTITIONS = { 1, 3, 6 };

	private static final int CONCURRENCY = 16;

	private PartitionedDrain() {
	}

	static void run(String[] args, PrintStream out) throws Exception {
		int jobs = (args.length > 0) ? Integer.parseInt(args[0]) : 30_000;
		int runs = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		try (LocalCluster cluster = TestRedisServer.cluster(3, 0)) {
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisClusterConfiguration(cluster.seedNodes()));
			factory.afterPropertiesSet();
			factory.start();
			try {
				out.println("# cluster " + cluster + ", " + Runtime.getRuntime().availableProcessors()
						+ " cores shared by the JVM and the servers");
				for (int run = 0; run <= runs; run++) {
					for (int count : PARTITIONS) {
						Result result = drain(cluster, factory, count, (run == 0) ? jobs / 5 : jobs);
						if (run > 0) {
							out.println(result.line(run));
						}
					}
				}
			}
			finally {
				factory.destroy();
			}
		}
	}

	private static Result drain(LocalCluster cluster, LettuceConnectionFactory factory, int count, int total)
			throws IOException {
		Engine jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), Keyspace.defaults());
		String queue = "bench-p" + count + "-" + System.nanoTime();
		QueuePartitioning partitioning = QueuePartitioning.of(Map.of(queue, count));
		QueuePartitions partitions = partitioning.forQueue(queue);
		EchoMqTemplate template = new EchoMqTemplate(jobs, new JacksonPayloadConverter(JsonMapper.builder().build()),
				1024, (name) -> 3, List.of());
		template.setPartitioning(partitioning);
		List<String> payloads = IntStream.range(0, 1000).mapToObj((i) -> "{\"n\":" + i + "}").toList();
		for (int done = 0; done < total; done += payloads.size()) {
			template.enqueueAll(queue, payloads.subList(0, Math.min(payloads.size(), total - done)));
		}
		Map<Integer, Integer> jobsByMaster = new HashMap<>();
		for (String name : partitions.names()) {
			RedisServerProcess master = cluster.masterFor(jobs.keyspace().queueKey(name, KeyType.PENDING.suffix()));
			long size = jobs.executor()
				.getTemplate()
				.opsForZSet()
				.zCard(jobs.keyspace().queueKey(name, KeyType.PENDING.suffix()));
			jobsByMaster.merge(master.port(), (int) size, Integer::sum);
		}
		Map<Integer, Double> cpuBefore = cpu(cluster);
		long jvmBefore = Probes.jvmCpuNanos();
		EchoJobListenerContainerFactory containers = new EchoJobListenerContainerFactory(jobs);
		containers.setPartitioning(partitioning);
		QueueListenerContainer container = containers
			.createContainer(EchoJobListenerEndpoint.of(queue, (job, context) -> {
			}, ListenerSettings.builder().concurrency(CONCURRENCY).build()));
		long start = System.nanoTime();
		container.start();
		while (container.getCompletedCount() < total) {
			Probes.sleep(0.005);
			if (System.nanoTime() - start > Duration.ofMinutes(10).toNanos()) {
				throw new IllegalStateException("Drain of " + total + " jobs did not finish in 10 minutes");
			}
		}
		long wall = System.nanoTime() - start;
		Map<Integer, Double> cpuAfter = cpu(cluster);
		long jvm = Probes.jvmCpuNanos() - jvmBefore;
		container.stop();
		containers.destroy();
		for (String name : partitions.names()) {
			jobs.executor().getTemplate().delete(List.of(jobs.keyspace().queueKey(name, KeyType.METRICS.suffix())));
		}
		Map<Integer, Double> cpuUsed = new LinkedHashMap<>();
		cpuAfter.forEach((port, seconds) -> cpuUsed.put(port, seconds - cpuBefore.get(port)));
		return new Result(count, total, wall, cpuUsed, jobsByMaster, jvm);
	}

	private static Map<Integer, Double> cpu(LocalCluster cluster) throws IOException {
		Map<Integer, Double> cpu = new LinkedHashMap<>();
		for (RedisServerProcess master : cluster.masters()) {
			try (RespClient client = RespClient.connect(master.host(), master.port(), Duration.ofSeconds(5))) {
				double seconds = 0;
				for (String line : String.valueOf(client.command("INFO", "cpu")).split("\r\n")) {
					if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
						seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1));
					}
				}
				cpu.put(master.port(), seconds);
			}
		}
		return cpu;
	}

	private record Result(int partitions, int jobs, long wallNanos, Map<Integer, Double> cpuSeconds,
			Map<Integer, Integer> jobsByMaster, long jvmCpuNanos) {

		String line(int run) {
			double seconds = this.wallNanos / 1e9;
			StringBuilder line = new StringBuilder(String.format(java.util.Locale.ROOT,
					"partitions.p%d.c%d run=%d jobs/s=%.0f jvm_cpu=%.0f%%core", this.partitions, CONCURRENCY, run,
					this.jobs / seconds, 100.0 * this.jvmCpuNanos / this.wallNanos));
			double ceiling = Double.MAX_VALUE;
			int master = 0;
			for (Map.Entry<Integer, Double> entry : this.cpuSeconds.entrySet()) {
				int share = this.jobsByMaster.getOrDefault(entry.getKey(), 0);
				double usPerJob = (share > 0) ? entry.getValue() * 1e6 / share : 0;
				line.append(String.format(java.util.Locale.ROOT, " m%d[jobs=%d cpu=%.0f%%core us/job=%.1f]", master++,
						share, 100.0 * entry.getValue() / seconds, usPerJob));
				if (share > 0) {
					// this master at one full core serves its share at 1e6/us jobs/s
					ceiling = Math.min(ceiling, 1e6 / usPerJob * this.jobs / share);
				}
			}
			line.append(String.format(java.util.Locale.ROOT, " projected_ceiling_jobs/s=%.0f", ceiling));
			return line.toString();
		}

	}

}
