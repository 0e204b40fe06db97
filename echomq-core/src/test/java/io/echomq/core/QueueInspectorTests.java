package io.echomq.core;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.JobView;
import io.echomq.inspect.QueueInspector;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The inspector's paged reads of every location, on a standalone server (rows pipelined)
 * and on a cluster (rows read one by one).
 *
 * @author EchoMQ
 */
class QueueInspectorTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	static Stream<Arguments> servers() {
		Supplier<LettuceConnectionFactory> standalone = () -> {
			TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
			return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
		};
		Supplier<LettuceConnectionFactory> cluster = () -> {
			LocalCluster local = TestRedisServer.sharedCluster();
			return new LettuceConnectionFactory(new RedisClusterConfiguration(local.seedNodes()));
		};
		return Stream.of(Arguments.of("standalone", standalone), Arguments.of("cluster", cluster));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void pagesShouldListEveryLocationNewestFirstWithRows(String name, Supplier<LettuceConnectionFactory> factory) {
		try (Connection connection = new Connection(factory.get())) {
			Keyspace keyspace = Keyspace.defaults();
			Engine jobs = connection.jobs(keyspace);
			StringRedisTemplate redis = new StringRedisTemplate(connection.factory());
			String queue = "inspect-" + UUID.randomUUID().toString().substring(0, 8);
			List<JobId> ids = jobs.enqueues()
				.enqueueAll(queue, List.of("a", "b", "c", "d", "e"), EnqueueSpec.defaults());
			JobId later = jobs.enqueues()
				.enqueue(queue, "later", EnqueueSpec.defaults().withDelay(Duration.ofMinutes(5)));
			JobId latest = jobs.enqueues()
				.enqueue(queue, "latest", EnqueueSpec.defaults().withDelay(Duration.ofMinutes(9)));
			List<ClaimedJob> claimed = jobs.claims().claim(queue, LEASE, 2);
			jobs.outcomes().deadLetter(queue, claimed.get(0).id(), claimed.get(0).token(), "boom");
			redis.opsForZSet().add(keyspace.queueKey(queue, KeyType.PENDING.suffix()), "not-a-job", 0);
			QueueInspector inspector = new QueueInspector(jobs);

			assertThat(inspector.jobs(queue, JobState.PENDING, 0, 10)).extracting(JobView::id)
				.containsExactly(ids.get(4), ids.get(3), ids.get(2));
			// the foreign member sorts last in byte order, so first here: an offset
			// counts it
			assertThat(inspector.jobs(queue, JobState.PENDING, 2, 1)).extracting(JobView::payload).containsExactly("d");
			assertThat(inspector.ids(queue, JobState.PENDING, 0, 10)).containsExactly(ids.get(4), ids.get(3),
					ids.get(2));
			List<JobView> scheduled = inspector.jobs(queue, JobState.SCHEDULE, 0, 10);
			assertThat(scheduled).extracting(JobView::id).containsExactly(latest, later);
			assertThat(scheduled.get(0).at()).isAfter(scheduled.get(1).at());
			List<JobView> active = inspector.jobs(queue, JobState.ACTIVE, 0, 10);
			assertThat(active).extracting(JobView::id).containsExactly(ids.get(1));
			assertThat(active.get(0).at()).isEqualTo(claimed.get(1).leaseDeadline());
			assertThat(active.get(0).attempts()).isEqualTo(1);
			List<JobView> dead = inspector.jobs(queue, JobState.DEAD, 0, 10);
			assertThat(dead).extracting(JobView::lastError).containsExactly("boom");
			assertThat(inspector.jobs(queue, JobState.DEAD, 5, 10)).isEmpty();
			assertThat(inspector.row(queue, ids.get(0))).containsEntry("state", "dead")
				.containsEntry("last_error", "boom")
				.containsEntry("payload", "a")
				.containsKey("dead_at");
			assertThat(inspector.row(queue, JobId.mint())).isEmpty();

			redis.opsForHash().put(keyspace.jobKey(queue, ids.get(3)), "state", "elsewhere");
			assertThat(inspector.jobs(queue, JobState.PENDING, 0, 10)).extracting(JobView::id)
				.containsExactly(ids.get(4), ids.get(2));
			assertThatIllegalArgumentException().isThrownBy(() -> inspector.jobs(queue, JobState.DEAD, -1, 10))
				.withMessageContaining("offset");
			assertThatIllegalArgumentException()
				.isThrownBy(() -> inspector.jobs(queue, JobState.DEAD, 0, QueueInspector.MAX_PAGE + 1))
				.withMessageContaining("limit");
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void pagesOfEveryPartitionShouldMergeInOneOrder(String name, Supplier<LettuceConnectionFactory> factory) {
		try (Connection connection = new Connection(factory.get())) {
			Engine jobs = connection.jobs(Keyspace.defaults());
			QueuePartitions partitions = QueuePartitions.of("merge-" + UUID.randomUUID().toString().substring(0, 8), 3);
			JobId a = jobs.enqueues().enqueue(partitions.name(0), "a", EnqueueSpec.defaults());
			JobId b = jobs.enqueues().enqueue(partitions.name(0), "b", EnqueueSpec.defaults().withPriority(5));
			JobId c = jobs.enqueues().enqueue(partitions.name(1), "c", EnqueueSpec.defaults());
			JobId d = jobs.enqueues().enqueue(partitions.name(2), "d", EnqueueSpec.defaults().withPriority(2));
			QueueInspector inspector = new QueueInspector(jobs);

			List<JobView> all = inspector.jobs(partitions, JobState.PENDING, 0, 10);
			assertThat(all).as("last in line first: priority 0 by highest id, then 2, then 5")
				.extracting(JobView::id)
				.containsExactly(c, a, d, b);
			assertThat(all).extracting(JobView::queue)
				.containsExactly(partitions.name(1), partitions.name(0), partitions.name(2), partitions.name(0));
			assertThat(inspector.jobs(partitions, JobState.PENDING, 1, 2)).extracting(JobView::id)
				.containsExactly(a, d);
			assertThat(inspector.jobs(partitions, JobState.PENDING, 4, 2)).isEmpty();
			assertThat(inspector.jobs(QueuePartitions.of(partitions.queue(), 1), JobState.PENDING, 0, 10)).isEmpty();
			assertThatIllegalArgumentException()
				.isThrownBy(() -> inspector.jobs(partitions, JobState.PENDING, QueueInspector.MAX_PAGE - 1, 2))
				.withMessageContaining("read one partition at a time");
		}
	}

	/**
	 * A started connection, destroyed on close.
	 */
	private record Connection(LettuceConnectionFactory factory) implements AutoCloseable {

		Connection {
			factory.afterPropertiesSet();
			factory.start();
		}

		Engine jobs(Keyspace keyspace) {
			return new Engine(new ScriptExecutor(new StringRedisTemplate(this.factory)), keyspace);
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

}
