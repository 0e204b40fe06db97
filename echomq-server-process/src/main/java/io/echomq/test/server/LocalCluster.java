package io.echomq.test.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Redis or Valkey cluster of local {@link RedisServerProcess cluster-enabled servers}.
 * <p>
 * The nodes are joined with {@code valkey-cli --cluster create} (or {@code redis-cli})
 * when a CLI is available ({@code ECHOMQ_CLUSTER_CLI} may name one) and at least three
 * masters are wanted, otherwise through RESP commands. {@link #start} returns once every
 * node reports {@code cluster_state:ok}, all 16384 slots are assigned, every node knows
 * every other and every replica is in sync with its master.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class LocalCluster implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(LocalCluster.class.getName());

	private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(30);

	private final Options options;

	private final List<RedisServerProcess> nodes;

	private final JoinMethod joinMethod;

	private volatile boolean closed;

	private LocalCluster(Options options, List<RedisServerProcess> nodes, JoinMethod joinMethod) {
		this.options = options;
		this.nodes = List.copyOf(nodes);
		this.joinMethod = joinMethod;
	}

	/**
	 * Start a cluster, joining it with a CLI if one is available.
	 * @param binary the server binary for every node
	 * @param masters the number of masters, at least 1
	 * @param replicasPerMaster the number of replicas for each master
	 * @return the running cluster
	 * @throws IllegalStateException if the cluster does not form within 30 seconds
	 */
	public static LocalCluster start(ServerBinary binary, int masters, int replicasPerMaster) {
		return start(binary, Options.of(masters, replicasPerMaster));
	}

	/**
	 * Start a cluster.
	 * @param binary the server binary for every node
	 * @param options the shape of the cluster and how to join it
	 * @return the running cluster
	 * @throws IllegalStateException if the cluster does not form within 30 seconds
	 */
	public static LocalCluster start(ServerBinary binary, Options options) {
		ServerOptions nodeOptions = ServerOptions.builder()
			.clusterEnabled(true)
			.extraArgs("--repl-diskless-sync-delay", "0")
			.build();
		List<RedisServerProcess> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < options.nodeCount(); i++) {
				nodes.add(RedisServerProcess.start(binary, nodeOptions));
			}
			Deadline deadline = Deadline.after(FORMATION_TIMEOUT);
			JoinMethod method = join(nodes, options, deadline);
			ClusterReadiness.awaitFormed(nodes, options.masters() * options.replicasPerMaster(), deadline);
			logger.log(Level.INFO, () -> "Started a cluster of " + options.masters() + " masters with "
					+ options.replicasPerMaster() + " replicas each, joined via " + method + ": " + binary.describe());
			return new LocalCluster(options, nodes, method);
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisServerProcess::close);
			throw ex;
		}
	}

	private static JoinMethod join(List<RedisServerProcess> nodes, Options options, Deadline deadline) {
		Optional<Path> cli = (options.useCli() && options.masters() >= ClusterCli.MIN_MASTERS)
				? ClusterCli.find(System::getenv) : Optional.empty();
		if (cli.isPresent()) {
			ClusterCli.create(cli.get(), nodes, options.replicasPerMaster(), deadline.remaining());
			return JoinMethod.CLI;
		}
		RespClusterJoin.join(nodes.subList(0, options.masters()), nodes.subList(options.masters(), nodes.size()),
				deadline);
		return JoinMethod.RESP;
	}

	/**
	 * Return every node, in start order: the ones started as masters first.
	 * @return the nodes
	 */
	public List<RedisServerProcess> nodes() {
		return this.nodes;
	}

	/**
	 * Return the live nodes that are masters right now, as {@code ROLE} reports it.
	 * @return the masters; after a failover these include promoted replicas
	 */
	public List<RedisServerProcess> masters() {
		return nodesWithRole("master");
	}

	/**
	 * Return the live nodes that are replicas right now, as {@code ROLE} reports it.
	 * @return the replicas
	 */
	public List<RedisServerProcess> replicas() {
		return nodesWithRole("slave");
	}

	/**
	 * Return the {@code host:port} of every node, for a client's cluster seed list.
	 * @return e.g. {@code [127.0.0.1:10001, 127.0.0.1:10002, ...]}
	 */
	public List<String> seedNodes() {
		return this.nodes.stream().map(RedisServerProcess::address).toList();
	}

	/**
	 * Return the shape of this cluster and how it was asked to be joined.
	 * @return the options
	 */
	public Options options() {
		return this.options;
	}

	/**
	 * Return how the nodes were joined.
	 * @return the join method
	 */
	public JoinMethod joinMethod() {
		return this.joinMethod;
	}

	/**
	 * Return the master that serves a key, as {@code CLUSTER KEYSLOT} and
	 * {@code CLUSTER SLOTS} on a live node report it.
	 * @param key the key
	 * @return the master node
	 * @throws IllegalStateException if no live node knows a master for the key's slot
	 */
	public RedisServerProcess masterFor(String key) {
		RedisServerProcess any = this.nodes.stream()
			.filter(RedisServerProcess::isAlive)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No node of the cluster is running"));
		try (RespClient client = any.openClient()) {
			Object slot = client.command("CLUSTER", "KEYSLOT", key);
			Object slots = client.command("CLUSTER", "SLOTS");
			if (slot instanceof Long keySlot && slots instanceof List<?> ranges) {
				for (Object range : ranges) {
					if (range instanceof List<?> entry && entry.size() > 2 && entry.get(0) instanceof Long from
							&& entry.get(1) instanceof Long to && from <= keySlot && keySlot <= to
							&& entry.get(2) instanceof List<?> master && master.size() > 1
							&& master.get(1) instanceof Long port) {
						return nodeOnPort(port.intValue());
					}
				}
			}
			throw new IllegalStateException("No master serves slot " + slot + " of key '" + key + "'");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot query " + any.address(), ex);
		}
	}

	/**
	 * Kill a node with {@code SIGKILL}; it can be brought back with
	 * {@link RedisServerProcess#restart()}.
	 * @param node a node of this cluster
	 */
	public void kill(RedisServerProcess node) {
		if (!this.nodes.contains(node)) {
			throw new IllegalArgumentException(node + " is not a node of this cluster");
		}
		node.kill();
	}

	/**
	 * Wait until every live node reports {@code cluster_state:ok} and every slot is
	 * served by a live master, e.g. for a failover after {@link #kill} of a master.
	 * @param timeout how long to wait
	 * @throws IllegalStateException if the cluster is not serving in time
	 */
	public void awaitServing(Duration timeout) {
		ClusterReadiness.awaitServing(this.nodes, Deadline.after(timeout));
	}

	/**
	 * Return whether the cluster is not closed and all its nodes are running.
	 * @return {@code true} if every node is running
	 */
	public boolean isRunning() {
		return !this.closed && this.nodes.stream().allMatch(RedisServerProcess::isAlive);
	}

	/**
	 * Kill every node and delete their directories.
	 */
	@Override
	public void close() {
		this.closed = true;
		this.nodes.forEach(RedisServerProcess::close);
	}

	@Override
	public String toString() {
		return "LocalCluster" + seedNodes();
	}

	private RedisServerProcess nodeOnPort(int port) {
		return this.nodes.stream()
			.filter((node) -> node.port() == port)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("Port " + port + " is not a node of " + this));
	}

	private List<RedisServerProcess> nodesWithRole(String role) {
		List<RedisServerProcess> matching = new ArrayList<>();
		for (RedisServerProcess node : this.nodes) {
			if (node.isAlive() && role.equals(roleOf(node))) {
				matching.add(node);
			}
		}
		return matching;
	}

	static String roleOf(RedisServerProcess node) {
		try (RespClient client = node.openClient()) {
			Object role = client.command("ROLE");
			if (role instanceof List<?> parts && !parts.isEmpty() && parts.get(0) instanceof String name) {
				return name;
			}
			throw new IllegalStateException(node.address() + " answers ROLE with " + role);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot query the role of " + node.address(), ex);
		}
	}

	/**
	 * How cluster nodes were joined.
	 *
	 * @author EchoMQ
	 * @since 0.1.0
	 */
	public enum JoinMethod {

		/** With {@code valkey-cli --cluster create} or {@code redis-cli}. */
		CLI,

		/**
		 * With {@code CLUSTER ADDSLOTS}, {@code MEET} and {@code REPLICATE} over RESP.
		 */
		RESP

	}

	/**
	 * The shape of a {@link LocalCluster} and how to join it.
	 *
	 * @param masters the number of masters, at least 1
	 * @param replicasPerMaster the number of replicas for each master
	 * @param useCli whether to join with a CLI when one is available; the CLI also needs
	 * at least three masters
	 * @author EchoMQ
	 * @since 0.1.0
	 */
	public record Options(int masters, int replicasPerMaster, boolean useCli) {

		/**
		 * Validate the components.
		 * @param masters the number of masters, at least 1
		 * @param replicasPerMaster the number of replicas for each master
		 * @param useCli whether to join with a CLI when one is available
		 */
		public Options {
			if (masters < 1) {
				throw new IllegalArgumentException("A cluster needs at least one master, got " + masters);
			}
			if (replicasPerMaster < 0) {
				throw new IllegalArgumentException(
						"Replicas per master must not be negative, got " + replicasPerMaster);
			}
		}

		/**
		 * Return options that join with a CLI when one is available.
		 * @param masters the number of masters, at least 1
		 * @param replicasPerMaster the number of replicas for each master
		 * @return the options
		 */
		public static Options of(int masters, int replicasPerMaster) {
			return new Options(masters, replicasPerMaster, true);
		}

		/**
		 * Return a copy that uses or avoids the CLI.
		 * @param useCli {@code false} to always join through RESP
		 * @return the new options
		 */
		public Options useCli(boolean useCli) {
			return new Options(this.masters, this.replicasPerMaster, useCli);
		}

		/**
		 * Return the total number of nodes.
		 * @return masters times one plus replicas per master
		 */
		public int nodeCount() {
			return this.masters * (1 + this.replicasPerMaster);
		}

	}

}
