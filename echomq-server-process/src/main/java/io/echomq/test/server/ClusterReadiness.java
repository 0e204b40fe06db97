package io.echomq.test.server;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Waits until the nodes of a cluster agree that it is healthy.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ClusterReadiness {

	static final int SLOTS = 16384;

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private ClusterReadiness() {
	}

	/**
	 * Wait until a newly created cluster has formed: every node reports
	 * {@code cluster_state:ok} with all slots assigned, knows every other node without
	 * any of them failing or in handshake, sees the expected number of replicas, and
	 * every replica's link to its master is up.
	 * @param nodes all nodes
	 * @param replicas the expected number of replicas
	 * @param deadline when to give up
	 */
	static void awaitFormed(List<RedisServerProcess> nodes, int replicas, Deadline deadline) {
		await(deadline, "form", () -> formationProblem(nodes, replicas));
	}

	/**
	 * Wait until every live node reports {@code cluster_state:ok} and every slot is
	 * served by a live master, e.g. after a failover.
	 * @param nodes all nodes; dead ones are ignored
	 * @param deadline when to give up
	 */
	static void awaitServing(List<RedisServerProcess> nodes, Deadline deadline) {
		await(deadline, "serve all slots", () -> servingProblem(nodes));
	}

	/**
	 * Wait until every node knows every other one, without handshakes pending.
	 * @param nodes all nodes
	 * @param deadline when to give up
	 */
	static void awaitAcquainted(List<RedisServerProcess> nodes, Deadline deadline) {
		await(deadline, "get acquainted", () -> acquaintanceProblem(nodes));
	}

	private static void await(Deadline deadline, String goal, Check check) {
		String problem = check.problem();
		while (problem != null) {
			if (deadline.hasExpired()) {
				throw new IllegalStateException(
						"Cluster did not " + goal + " within " + deadline.timeout().toSeconds() + " s: " + problem);
			}
			deadline.pause(POLL_INTERVAL);
			problem = check.problem();
		}
	}

	private static @Nullable String formationProblem(List<RedisServerProcess> nodes, int replicas) {
		for (RedisServerProcess node : nodes) {
			try (RespClient client = node.openClient()) {
				String problem = stateProblem(client, nodes.size());
				if (problem == null) {
					problem = topologyProblem(client, nodes.size(), replicas);
				}
				if (problem != null) {
					return node.address() + " " + problem;
				}
			}
			catch (IOException | RuntimeException ex) {
				return node.address() + " cannot be queried: " + ex.getMessage();
			}
		}
		return null;
	}

	private static @Nullable String acquaintanceProblem(List<RedisServerProcess> nodes) {
		for (RedisServerProcess node : nodes) {
			try (RespClient client = node.openClient()) {
				List<ClusterNodeView.Node> known = ClusterNodeView.nodes(client.commandForString("CLUSTER", "NODES"));
				if (known.size() != nodes.size()) {
					return node.address() + " knows " + known.size() + " of " + nodes.size() + " nodes";
				}
				for (ClusterNodeView.Node other : known) {
					if (other.isTroubled()) {
						return node.address() + " sees node " + other.port() + " with flags " + other.flags();
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				return node.address() + " cannot be queried: " + ex.getMessage();
			}
		}
		return null;
	}

	private static @Nullable String servingProblem(List<RedisServerProcess> nodes) {
		List<RedisServerProcess> alive = nodes.stream().filter(RedisServerProcess::isAlive).toList();
		Set<Integer> alivePorts = alive.stream().map(RedisServerProcess::port).collect(Collectors.toSet());
		for (RedisServerProcess node : alive) {
			try (RespClient client = node.openClient()) {
				String problem = stateProblem(client, -1);
				if (problem == null) {
					problem = deadMasterProblem(client, alivePorts);
				}
				if (problem != null) {
					return node.address() + " " + problem;
				}
			}
			catch (IOException | RuntimeException ex) {
				return node.address() + " cannot be queried: " + ex.getMessage();
			}
		}
		return null;
	}

	private static @Nullable String stateProblem(RespClient client, int expectedNodes) throws IOException {
		Map<String, String> info = ClusterNodeView.fields(client.commandForString("CLUSTER", "INFO"));
		if (!"ok".equals(info.get("cluster_state"))) {
			return "reports cluster_state:" + info.get("cluster_state");
		}
		if (!String.valueOf(SLOTS).equals(info.get("cluster_slots_assigned"))) {
			return "reports cluster_slots_assigned:" + info.get("cluster_slots_assigned");
		}
		if (expectedNodes > 0 && !String.valueOf(expectedNodes).equals(info.get("cluster_known_nodes"))) {
			return "reports cluster_known_nodes:" + info.get("cluster_known_nodes") + " of " + expectedNodes;
		}
		return null;
	}

	private static @Nullable String topologyProblem(RespClient client, int expectedNodes, int replicas)
			throws IOException {
		List<ClusterNodeView.Node> known = ClusterNodeView.nodes(client.commandForString("CLUSTER", "NODES"));
		if (known.size() != expectedNodes) {
			return "lists " + known.size() + " of " + expectedNodes + " nodes";
		}
		long seenReplicas = known.stream().filter(ClusterNodeView.Node::isReplica).count();
		if (seenReplicas != replicas) {
			return "sees " + seenReplicas + " of " + replicas + " replicas";
		}
		for (ClusterNodeView.Node node : known) {
			if (node.isTroubled()) {
				return "sees node " + node.port() + " with flags " + node.flags();
			}
			if (node.isMyself() && node.isReplica()) {
				Map<String, String> replication = ClusterNodeView
					.fields(client.commandForString("INFO", "replication"));
				if (!"up".equals(replication.get("master_link_status"))) {
					return "is a replica with master_link_status:" + replication.get("master_link_status");
				}
			}
		}
		return null;
	}

	private static @Nullable String deadMasterProblem(RespClient client, Set<Integer> alivePorts) throws IOException {
		Object slots = client.command("CLUSTER", "SLOTS");
		if (!(slots instanceof List<?> ranges)) {
			return "answers CLUSTER SLOTS with " + slots;
		}
		for (Object range : ranges) {
			if (range instanceof List<?> entry && entry.size() > 2 && entry.get(2) instanceof List<?> master
					&& master.size() > 1 && master.get(1) instanceof Long port
					&& !alivePorts.contains(port.intValue())) {
				return "still assigns slots " + entry.get(0) + "-" + entry.get(1) + " to dead master " + port;
			}
		}
		return null;
	}

	@FunctionalInterface
	private interface Check {

		@Nullable String problem();

	}

}
