package io.echomq.partition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.PartitionCountChangedException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.WrongKeyTypeException;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.PartitionCountCheck;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code echomq.queues.<name>.partitions} wired through the auto-configuration against a
 * real Valkey server: the template, the listener container and the scheduler use every
 * partition, an idle container wakes for a job on any partition at once, and a changed
 * count is refused at start-up while the queue holds jobs.
 *
 * @author EchoMQ
 */
class PartitionedQueueAutoConfigurationTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private String prefix;

	@BeforeEach
	void setUp() {
		this.prefix = ListenerTestSupport.uniquePrefix();
	}

	private ApplicationContextRunner runner(int partitions) {
		return ListenerTestSupport.runner(server, this.prefix)
			.withPropertyValues("echomq.queues.parts.partitions=" + partitions, "echomq.listener.idle-wait=30s");
	}

	@Test
	void idleContainerWakesAtOnceForAJobOnAnyPartition() {
		runner(6).withUserConfiguration(PartsListener.class).run((context) -> {
			assertThat(context).hasNotFailed();
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("parts");
			assertThat(container.getPartitions()).hasSize(6)
				.isEqualTo(context.getBean(QueuePartitioning.class).forQueue("parts").names());
			PartsListener listener = context.getBean(PartsListener.class);
			QueuePartitions partitions = template.getPartitioning().forQueue("parts");
			// let the poller find every partition dry and block on the wake lists (30 s
			// idle wait)
			await(() -> container.isPollerAlive());
			for (int i = 0; i < 12; i++) {
				long sent = System.nanoTime();
				JobId id = template.enqueue("parts", "p" + i, EnqueueOptions.defaults().withPartitionKey("key-" + i));
				String handled = listener.handled.poll(5, TimeUnit.SECONDS);
				assertThat(handled).as("job %d on partition %d", i, partitions.partitionOf(id)).isEqualTo("p" + i);
				assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(2));
			}
			await(() -> container.getCompletedCount() == 12);
		});
	}

	@Test
	void schedulerPromotesDelayedJobsOnEveryPartition() {
		runner(4).withUserConfiguration(PartsListener.class).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			PartsListener listener = context.getBean(PartsListener.class);
			List<JobId> ids = template.enqueueAll("parts", List.of("d0", "d1", "d2", "d3"),
					EnqueueOptions.delayed(Duration.ofMillis(300)));
			assertThat(ids.stream().map(JobId::partition).distinct()).hasSize(4);
			for (int i = 0; i < 4; i++) {
				assertThat(listener.handled.poll(10, TimeUnit.SECONDS)).as("delayed job %d", i).isNotNull();
			}
		});
	}

	@Test
	void changedCountIsRefusedWhileTheQueueHoldsJobs() {
		runner(6).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EchoMqTemplate.class).enqueue("parts", "stays");
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			assertThat(redis.opsForValue().get(this.prefix + ":{parts}:partitions")).isEqualTo("6");
		});
		runner(3).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(PartitionCountChangedException.class)
				.hasMessageContaining("Queue 'parts' is configured with 3 partition(s) but holds 1 job(s) in its 6")
				.hasMessageContaining("echomq.queues.parts.partitions=6");
		});
		ListenerTestSupport.runner(server, this.prefix)
			.withPropertyValues("echomq.queues.parts.partitions=1")
			.run((context) -> assertThat(context).hasFailed());
		runner(6).run((context) -> {
			assertThat(context).hasNotFailed();
			Engine jobs = context.getBean(Engine.class);
			QueuePartitions partitions = context.getBean(QueuePartitioning.class).forQueue("parts");
			for (String name : partitions.names()) {
				jobs.admin().purgeDead(name);
				StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
				redis.delete(List.of(jobs.keyspace().queueKey(name, KeyType.PENDING.suffix())));
			}
		});
		runner(2).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(
					context.getBean(StringRedisTemplate.class).opsForValue().get(this.prefix + ":{parts}:partitions"))
				.isEqualTo("2");
		});
	}

	@Test
	void differentCountsCheckedAtTheSameTimeLetExactlyOneWin() {
		ListenerTestSupport.runner(server, this.prefix).run((context) -> {
			Engine jobs = context.getBean(Engine.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			for (int round = 0; round < 10; round++) {
				String queue = "race" + round;
				List<QueuePartitions> counts = List.of(QueuePartitions.of(queue, 4), QueuePartitions.of(queue, 6));
				CyclicBarrier start = new CyclicBarrier(2);
				List<CompletableFuture<QueuePartitions>> checks = counts.stream()
					.map((partitions) -> CompletableFuture.supplyAsync(() -> {
						PartitionCountCheck check = new PartitionCountCheck(jobs.keyspace(), jobs.executor());
						try {
							start.await(5, TimeUnit.SECONDS);
						}
						catch (Exception ex) {
							throw new IllegalStateException(ex);
						}
						check.join(partitions, "holder-" + partitions.count(), Duration.ofSeconds(30));
						return partitions;
					}))
					.toList();
				List<QueuePartitions> won = new ArrayList<>();
				List<Throwable> lost = new ArrayList<>();
				for (CompletableFuture<QueuePartitions> check : checks) {
					try {
						won.add(check.get(10, TimeUnit.SECONDS));
					}
					catch (ExecutionException ex) {
						lost.add(ex.getCause());
					}
				}
				assertThat(won).as("round %d", round).hasSize(1);
				assertThat(lost).singleElement()
					.isInstanceOf(PartitionCountChangedException.class)
					.extracting(Throwable::getMessage)
					.asString()
					.containsIgnoringCase("queue '" + queue + "'")
					.contains("" + won.get(0).count());
				QueuePartitions winner = won.get(0);
				assertThat(new PartitionCountCheck(jobs.keyspace(), jobs.executor()).recorded(queue))
					.isEqualTo(winner.count());
				template.setPartitioning(QueuePartitioning.of(java.util.Map.of(queue, winner.count())));
				List<JobId> ids = template.enqueueAll(queue, List.of("a", "b", "c", "d", "e", "f", "g", "h"));
				long located = winner.names()
					.stream()
					.mapToLong((name) -> new io.echomq.inspect.QueueInspector(jobs).stats(name).pending())
					.sum();
				assertThat(located).as("jobs in the winner's layout").isEqualTo(ids.size());
			}
		});
	}

	@Test
	void keylessEnqueueDoesNotFailOverOnAScriptError() {
		runner(3).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			QueuePartitions partitions = template.getPartitioning().forQueue("parts");
			StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
			Engine jobs = context.getBean(Engine.class);
			redis.opsForValue()
				.set(jobs.keyspace().queueKey(partitions.name(0), KeyType.PENDING.suffix()), "not a zset");
			assertThatExceptionOfType(WrongKeyTypeException.class)
				.isThrownBy(() -> template.enqueueAll("parts", List.of("a", "b", "c")));
			long written = 0;
			for (int i = 1; i < partitions.count(); i++) {
				written += new io.echomq.inspect.QueueInspector(jobs).stats(partitions.name(i)).pending();
			}
			assertThat(written).as("jobs written elsewhere instead").isZero();
		});
	}

	@Test
	void countHeldByARunningApplicationCannotChange() {
		runner(6).run((running) -> {
			assertThat(running).hasNotFailed();
			runner(3).run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(PartitionCountChangedException.class)
				.hasMessageContaining("configured with 3 partition(s) but a running application uses 6"));
		});
		runner(3).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(
					context.getBean(StringRedisTemplate.class).opsForValue().get(this.prefix + ":{parts}:partitions"))
				.isEqualTo("3");
		});
	}

	@Test
	void unpartitionedQueueWithJobsCannotBecomePartitioned() {
		ListenerTestSupport.runner(server, this.prefix).run((context) -> {
			context.getBean(EchoMqTemplate.class).enqueue("parts", "old");
		});
		runner(4).run((context) -> assertThat(context.getStartupFailure()).rootCause()
			.isInstanceOf(PartitionCountChangedException.class)
			.hasMessageContaining("holds 1 job(s) in its 1 recorded partition(s)"));
	}

	@Test
	void partitionCountOutOfRangeFailsTheBinding() {
		runner(0).run((context) -> assertThat(context.getStartupFailure()).rootCause()
			.hasMessageContaining("echomq.queues.*.partitions must be between 1 and 256, was 0"));
		runner(257)
			.run((context) -> assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("was 257"));
	}

	private static void await(java.util.concurrent.Callable<Boolean> condition) {
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(condition);
	}

	static class PartsListener {

		final BlockingQueue<String> handled = new LinkedBlockingQueue<>();

		@EchoJob(queue = "parts")
		void handle(String payload) {
			this.handled.add(payload);
		}

	}

}
