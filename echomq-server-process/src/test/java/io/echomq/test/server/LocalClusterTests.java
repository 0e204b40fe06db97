package io.echomq.test.server;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LocalCluster}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class LocalClusterTests {

	@Test
	void threeMastersReachClusterStateOkWithAllSlotsCovered() throws IOException {
		try (LocalCluster cluster = LocalCluster.start(ServerBinary.locate(), 3, 0)) {
			assertThat(cluster.nodes()).hasSize(3);
			assertThat(cluster.seedNodes()).hasSize(3).allMatch((seed) -> seed.startsWith("127.0.0.1:"));
			assertThat(cluster.masters()).hasSize(3);
			assertThat(cluster.replicas()).isEmpty();
			assertHealthy(cluster);
			RedisServerProcess master = cluster.masterFor("echomq:{job}:1");
			try (RespClient client = master.openClient()) {
				assertThat(client.command("SET", "echomq:{job}:1", "value")).isEqualTo("OK");
			}
		}
	}

	@Test
	void respJoinWorksWithTheEmbeddedRedis62() throws IOException {
		LocalCluster.Options options = LocalCluster.Options.of(3, 0).useCli(false);
		try (LocalCluster cluster = LocalCluster.start(TestBinaries.embedded(), options)) {
			assertThat(cluster.joinMethod()).isEqualTo(LocalCluster.JoinMethod.RESP);
			assertThat(cluster.nodes()).allSatisfy((node) -> assertThat(node.version()).startsWith("6.2."));
			assertHealthy(cluster);
		}
	}

	@Test
	void threeMastersWithOneReplicaEachFailOverWhenAMasterIsKilled() throws IOException {
		try (LocalCluster cluster = LocalCluster.start(ServerBinary.locate(), 3, 1)) {
			assertThat(cluster.nodes()).hasSize(6);
			assertThat(cluster.masters()).hasSize(3);
			List<RedisServerProcess> replicas = cluster.replicas();
			assertThat(replicas).hasSize(3);
			for (RedisServerProcess replica : replicas) {
				try (RespClient client = replica.openClient()) {
					assertThat(client.command("ROLE")).asList().first().isEqualTo("slave");
				}
			}
			assertHealthy(cluster);
			RedisServerProcess master = cluster.masterFor("echomq:failover");
			cluster.kill(master);
			assertThat(cluster.isRunning()).isFalse();
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(cluster.masters()).hasSize(3).doesNotContain(master));
			cluster.awaitServing(Duration.ofSeconds(20));
			assertThat(cluster.masterFor("echomq:failover")).isNotEqualTo(master).isIn(replicas);
		}
	}

	@Test
	void optionsRejectAClusterWithoutMasters() {
		assertThatIllegalArgumentException().isThrownBy(() -> LocalCluster.Options.of(0, 1));
		assertThat(LocalCluster.Options.of(3, 1).nodeCount()).isEqualTo(6);
	}

	private static void assertHealthy(LocalCluster cluster) throws IOException {
		for (RedisServerProcess node : cluster.nodes()) {
			try (RespClient client = node.openClient()) {
				Map<String, String> info = ClusterNodeView.fields(client.commandForString("CLUSTER", "INFO"));
				assertThat(info).containsEntry("cluster_state", "ok")
					.containsEntry("cluster_slots_assigned", "16384")
					.containsEntry("cluster_known_nodes", String.valueOf(cluster.nodes().size()));
			}
		}
	}

}
