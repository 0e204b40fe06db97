package io.echomq.partition;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import io.echomq.EchoMqTemplate;
import io.echomq.EngineConnection;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.InvalidQueueNameException;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerEndpoint;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestRedisServer;
import io.echomq.test.server.RedisServerProcess;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisClusterConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Partitioned queues on the shared local cluster of three masters: where the partitions
 * land, routing by key and by round-robin, lookups by id, and a 20,000-job drain by one
 * container across six partitions with exact accounting and a clean audit of each.
 *
 * @author EchoMQ
 */
class ClusterPartitionsTests {

	@RegisterExtension
	final EngineConnection engine = EngineConnection.toSharedCluster("p-");

	private EchoMqTemplate template;

	@BeforeEach
	void setUp() {
		this.template = this.engine.template(4096, 3, List.of());
	}

	@Test
	void sixPartitionsSpreadTwoPerMasterWhateverTheName() {
		for (String name : List.of("orders", "mail", "q", this.engine.queue())) {
			QueuePartitions partitions = QueuePartitions.of(name, 6);
			Map<Integer, List<String>> byMaster = new LinkedHashMap<>();
			StringBuilder mapping = new StringBuilder(name + ":");
			for (String partition : partitions.names()) {
				String key = this.engine.jobs().keyspace().queueKey(partition, KeyType.PENDING.suffix());
				int slot = QueuePartitions.slot(key);
				try (RedisClusterConnection connection = this.engine.redis()
					.getRequiredConnectionFactory()
					.getClusterConnection()) {
					assertThat(connection.clusterGetSlotForKey(key.getBytes(StandardCharsets.UTF_8)))
						.as("CLUSTER KEYSLOT of %s", key)
						.isEqualTo(slot);
				}
				RedisServerProcess master = TestRedisServer.sharedCluster().masterFor(key);
				byMaster.computeIfAbsent(master.port(), (port) -> new ArrayList<>()).add(partition);
				mapping.append(" {")
					.append(partition)
					.append("} slot ")
					.append(slot)
					.append(" -> :")
					.append(master.port());
			}
			System.out.println(mapping);
			assertThat(byMaster).as(mapping.toString()).hasSize(3);
			assertThat(byMaster.values()).as(mapping.toString()).allSatisfy((names) -> assertThat(names).hasSize(2));
		}
	}

	@Test
	void singlePartitionKeepsTodaysKeys() {
		QueuePartitions partitions = QueuePartitions.of(this.engine.queue(), 1);
		assertThat(partitions.names()).containsExactly(this.engine.queue());
		JobId id = this.template.enqueue(this.engine.queue(), "x");
		assertThat(this.engine.redis().opsForZSet().score("emq:{" + this.engine.queue() + "}:pending", id.toString()))
			.isZero();
	}

	@Test
	void partitionKeyRoutesToOnePartitionAndIdFindsIt() {
		QueuePartitions partitions = partition(6);
		List<JobId> sameKey = IntStream.range(0, 20)
			.mapToObj((i) -> this.template.enqueue(this.engine.queue(), "k" + i,
					EnqueueOptions.defaults().withPartitionKey("customer-42")))
			.toList();
		int expected = partitions.partitionForKey("customer-42");
		assertThat(sameKey).allSatisfy((id) -> assertThat(partitions.partitionOf(id)).isEqualTo(expected));
		String name = partitions.name(expected);
		List<String> pending = new ArrayList<>(this.engine.redis()
			.opsForZSet()
			.range(this.engine.jobs().keyspace().queueKey(name, KeyType.PENDING.suffix()), 0, -1));
		assertThat(pending).as("FIFO within the partition")
			.containsExactlyElementsOf(sameKey.stream().map(JobId::toString).toList());
		QueueInspector inspector = new QueueInspector(this.engine.jobs());
		assertThat(inspector.job(partitions.nameOf(sameKey.get(3)), sameKey.get(3))).isNotNull();
	}

	@Test
	void roundRobinSpreadsABatchEvenly() {
		QueuePartitions partitions = partition(6);
		List<JobId> ids = this.template.enqueueAll(this.engine.queue(),
				IntStream.range(0, 600).mapToObj((i) -> "j" + i).toList());
		QueueInspector inspector = new QueueInspector(this.engine.jobs());
		for (String name : partitions.names()) {
			assertThat(inspector.stats(name).pending()).as(name).isEqualTo(100);
		}
		assertThat(ids).allSatisfy((id) -> assertThat(this.engine.redis()
			.opsForZSet()
			.score(this.engine.jobs().keyspace().queueKey(partitions.nameOf(id), KeyType.PENDING.suffix()),
					id.toString()))
			.isZero());
	}

	@Test
	void badInputIsRefusedBeforeAnyWrite() {
		QueuePartitions partitions = partition(4);
		assertThatIllegalArgumentException().isThrownBy(() -> QueuePartitions.of(this.engine.queue(), 0))
			.withMessageContaining("Invalid partition count 0");
		assertThatIllegalArgumentException().isThrownBy(() -> QueuePartitions.of(this.engine.queue(), 257))
			.withMessageContaining("between 1 and 256");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().withPartitionKey("k".repeat(1025)))
			.withMessageContaining("1025 bytes");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.template.enqueue(partitions.name(1), "x"))
			.withMessageContaining("'#' is reserved");
		assertThatExceptionOfType(InvalidQueueNameException.class)
			.isThrownBy(() -> this.engine.jobs()
				.enqueues()
				.enqueue(this.engine.queue() + "#x", "x", io.echomq.core.internal.EnqueueSpec.defaults()))
			.withMessageContaining("'#' is reserved");
		JobId foreign = JobId.mint(9);
		assertThatExceptionOfType(InvalidPartitionException.class).isThrownBy(() -> partitions.nameOf(foreign))
			.withMessageContaining("names partition 9")
			.withMessageContaining("has 4 partition(s)");
		assertThatExceptionOfType(InvalidPartitionException.class).isThrownBy(() -> partitions.name(4));
		Set<String> keys = this.engine.redis().keys("emq:{" + this.engine.queue() + "*");
		assertThat(keys).isEmpty();
	}

	@Test
	@Timeout(300)
	void oneContainerDrainsTwentyThousandJobsAcrossSixPartitionsExactly() {
		QueuePartitions partitions = partition(6);
		int total = 20_000;
		List<JobId> ids = new ArrayList<>(total);
		for (int batch = 0; batch < total / 1000; batch++) {
			int offset = batch * 1000;
			ids.addAll(this.template.enqueueAll(this.engine.queue(),
					IntStream.range(offset, offset + 1000).mapToObj((i) -> "job-" + i).toList()));
		}
		Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
		EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(this.engine.jobs());
		factory.setPartitioning(this.template.getPartitioning());
		QueueListenerContainer container = factory.createContainer(EchoJobListenerEndpoint.of(this.engine.queue(), (job,
				context) -> runs.computeIfAbsent(job.id().toString(), (id) -> new AtomicInteger()).incrementAndGet(),
				ListenerSettings.builder().concurrency(16).build()));
		long start = System.nanoTime();
		container.start();
		try {
			await().atMost(Duration.ofMinutes(4))
				.pollInterval(Duration.ofMillis(200))
				.until(() -> container.getCompletedCount() >= total);
		}
		finally {
			container.stop();
			factory.destroy();
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		System.out.printf("drained %d jobs over %d partitions in %.1f s (%.0f jobs/s)%n", total, partitions.count(),
				seconds, total / seconds);
		assertThat(runs).hasSize(total);
		assertThat(runs.values()).allSatisfy((count) -> assertThat(count.get()).isEqualTo(1));
		assertThat(ids).allSatisfy((id) -> assertThat(runs).containsKey(id.toString()));
		QueueInspector inspector = new QueueInspector(this.engine.jobs());
		QueueAuditor auditor = new QueueAuditor(this.engine.jobs());
		long completed = 0;
		for (String name : partitions.names()) {
			QueueStats stats = inspector.stats(name);
			assertThat(stats.pending() + stats.active() + stats.schedule() + stats.dead() + stats.quarantine()).as(name)
				.isZero();
			long enqueued = stats.counters().getOrDefault("enqueued", 0L);
			long done = stats.counters().getOrDefault("completed", 0L);
			// round-robin from a random start: each partition gets 3333 or 3334
			assertThat(enqueued).as("enqueued on %s", name)
				.isBetween((long) total / partitions.count(), (long) total / partitions.count() + 1);
			assertThat(done).as("completed on %s", name).isEqualTo(enqueued);
			completed += done;
			AuditReport report = auditor.audit(name, Duration.ofSeconds(5));
			assertThat(report.violations()).as("audit of %s", name).isEmpty();
			assertThat(report.total()).as("jobs left on %s", name).isZero();
		}
		assertThat(completed).as("completed over all partitions").isEqualTo(total);
	}

	private QueuePartitions partition(int count) {
		this.template.setPartitioning(QueuePartitioning.of(Map.of(this.engine.queue(), count)));
		return this.template.getPartitioning().forQueue(this.engine.queue());
	}

}
