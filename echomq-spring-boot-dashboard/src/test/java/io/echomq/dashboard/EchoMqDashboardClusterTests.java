package io.echomq.dashboard;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqEngines;
import io.echomq.EchoMqTemplate;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.KeyType;
import io.echomq.dashboard.QueueFlow.PartitionSummary;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard model on a real cluster of three masters: a queue of three partitions
 * shows the master serving each partition, one per master, and its jobs are listed, found
 * and deleted across the masters.
 *
 * @author EchoMQ
 */
class EchoMqDashboardClusterTests {

	private LocalCluster cluster;

	private LettuceConnectionFactory connections;

	@AfterEach
	void stop() {
		if (this.connections != null) {
			this.connections.destroy();
		}
		if (this.cluster != null) {
			this.cluster.close();
		}
	}

	@Test
	void partitionsShouldNameTheMasterServingThemAndJobsBeFoundAcrossMasters() {
		this.cluster = TestRedisServer.cluster(3, 0);
		this.connections = new LettuceConnectionFactory(new RedisClusterConfiguration(this.cluster.seedNodes()));
		this.connections.afterPropertiesSet();
		this.connections.start();
		EchoMqEngine jobs = EchoMqEngines.create(this.connections,
				new Keyspace(DashboardTestApplication.unique("dash")));
		QueuePartitioning partitioning = QueuePartitioning.of(Map.of("routes", 3));
		QueuePartitions partitions = partitioning.forQueue("routes");
		EchoMqTemplate template = new EchoMqTemplate(jobs, new JacksonPayloadConverter(JsonMapper.builder().build()),
				4096, (queue) -> 3, List.of());
		template.setPartitioning(partitioning);
		EchoMqAdmin admin = new EchoMqAdmin(jobs);
		admin.setPartitioning(partitioning);
		EchoMqDashboard dashboard = new EchoMqDashboard(admin, new QueueInspector(jobs), new QueueNodes(jobs),
				new FlowTree(jobs), new BatchView(jobs), new EchoMqQueueCatalog(Set::of, Set.of("routes")), null,
				(queue) -> 3, QueueHistory.none(), new Sanitizer(), "cluster-test", null);
		List<JobId> ids = template.enqueueAll("routes", List.of("r1", "r2", "r3", "r4", "r5", "r6"));

		QueueSummary routes = dashboard.overview().queues().get(0);
		assertThat(routes.counts()).containsEntry("pending", 6L);
		Set<String> nodes = new HashSet<>();
		for (PartitionSummary partition : routes.flow().partitions()) {
			String master = this.cluster.masterFor(jobs.keyspace().queueKey(partition.name(), KeyType.PENDING.suffix()))
				.address();
			assertThat(partition.node()).as(partition.name())
				.isNotNull()
				.endsWith(":" + master.substring(master.lastIndexOf(':') + 1));
			assertThat(partition.counts()).containsEntry("pending", 2L);
			nodes.add(partition.node());
		}
		assertThat(nodes).as("one partition on each master").hasSize(3);

		List<String> listed = new ArrayList<>();
		dashboard.jobs("routes", JobState.PENDING, 0, 10, false).jobs().forEach((job) -> listed.add(job.id()));
		assertThat(listed).containsExactlyInAnyOrderElementsOf(ids.stream().map(JobId::toString).toList());
		JobId last = ids.get(5);
		assertThat(dashboard.findQueue(last)).isEqualTo("routes");
		assertThat(dashboard.job("routes", last, false).partition()).isEqualTo(partitions.nameOf(last));
		assertThat(dashboard.delete("routes", last).status()).isEqualTo(Outcome.Status.DONE);
		assertThat(dashboard.job("routes", last, false)).isNull();
		assertThat(dashboard.overview().queues().get(0).counts()).containsEntry("pending", 5L);
	}

}
