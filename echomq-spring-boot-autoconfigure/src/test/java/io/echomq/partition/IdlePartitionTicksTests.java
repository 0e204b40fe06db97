package io.echomq.partition;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reap and promote ticks over an idle queue of 16 partitions, on a real Valkey server
 * of their own: measured in server commands per tick against an idle unpartitioned queue,
 * and a due job on a partition the ticks had been skipping is still promoted within the
 * skip bound.
 *
 * @author EchoMQ
 */
class IdlePartitionTicksTests {

	private static final int TICKS = 64;

	private LettuceConnectionFactory connectionFactory;

	private Engine jobs;

	@BeforeEach
	void setUp() {
		TestServer server = ListenerTestSupport.sharedServer();
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(server.host(), server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(this.connectionFactory)),
				Keyspace.defaults());
	}

	@AfterEach
	void tearDown() {
		this.connectionFactory.destroy();
	}

	@Test
	void idlePartitionsCostAFractionOfOneCallEachPerTick() {
		String queue = "idle-" + UUID.randomUUID().toString().substring(0, 8);
		QueuePartitions partitions = QueuePartitions.of(queue, 16);
		double single = commandsPerTick(List.of(queue + "-single"));
		double partitioned = commandsPerTick(partitions.names());
		System.out.printf("idle reap+promote tick: 1 queue %.2f commands, 16 partitions %.2f commands (%.1fx)%n",
				single, partitioned, partitioned / single);
		assertThat(partitioned).as("16 idle partitions cost less than 4 idle queues").isLessThan(4 * single);
	}

	@Test
	void dueJobOnASkippedPartitionIsPromotedWithinTheSkipBound() {
		String queue = "skip-" + UUID.randomUUID().toString().substring(0, 8);
		QueuePartitions partitions = QueuePartitions.of(queue, 4);
		EchoMqMaintenance scheduler = scheduler(partitions.names());
		for (int i = 0; i < 20; i++) {
			scheduler.promoteTick();
		}
		String partition = partitions.name(2);
		this.jobs.enqueues().enqueue(partition, "late", EnqueueSpec.defaults().withDelay(Duration.ofMillis(1)));
		await(() -> this.jobs.executor()
			.getTemplate()
			.opsForZSet()
			.zCard(this.jobs.keyspace().locationKey(partition, io.echomq.core.JobState.SCHEDULE)) == 1);
		int ticks = 0;
		while (this.jobs.executor()
			.getTemplate()
			.opsForZSet()
			.zCard(this.jobs.keyspace().locationKey(partition, io.echomq.core.JobState.PENDING)) == 0) {
			scheduler.promoteTick();
			ticks++;
			assertThat(ticks).as("ticks until promoted").isLessThanOrEqualTo(8);
		}
	}

	private double commandsPerTick(List<String> queues) {
		EchoMqMaintenance scheduler = scheduler(queues);
		for (int i = 0; i < 16; i++) {
			scheduler.reapTick();
			scheduler.promoteTick();
		}
		long before = commandsProcessed();
		for (int i = 0; i < TICKS; i++) {
			scheduler.reapTick();
			scheduler.promoteTick();
		}
		long after = commandsProcessed();
		// less the INFO of the second reading
		return (after - before - 1) / (double) TICKS;
	}

	private EchoMqMaintenance scheduler(List<String> queues) {
		return new EchoMqMaintenance(this.jobs,
				new MaintenanceSettings(Duration.ofSeconds(1), Duration.ofMillis(100), 100), () -> queues,
				ThreadPoolTaskScheduler::new, List.of());
	}

	private long commandsProcessed() {
		String info = this.jobs.executor()
			.getTemplate()
			.execute((RedisCallback<String>) (connection) -> String
				.valueOf(connection.serverCommands().info("stats").getProperty("total_commands_processed")));
		return Long.parseLong(info);
	}

	private static void await(java.util.concurrent.Callable<Boolean> condition) {
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(condition);
	}

}
