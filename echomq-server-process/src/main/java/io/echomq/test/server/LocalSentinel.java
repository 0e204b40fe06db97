package io.echomq.test.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A primary with replicas watched by Sentinels, all local processes on free ports: the
 * deployment a Sentinel-managed (or a managed service that fails over alike) production
 * runs. {@link #start} returns once every replica is in sync with the primary and every
 * Sentinel monitors it and knows every replica and every other Sentinel, so that a
 * {@link #kill} of the primary is followed by a failover.
 * <p>
 * The Sentinels consider the primary down after {@value #DOWN_AFTER_MILLIS} ms without a
 * reply (Sentinel's own default is 30 s) and need two of them to agree.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class LocalSentinel implements AutoCloseable {

	/** The name the Sentinels monitor the primary under. */
	public static final String MASTER_NAME = "echomq";

	private static final System.Logger logger = System.getLogger(LocalSentinel.class.getName());

	private static final long DOWN_AFTER_MILLIS = 2000;

	private static final long FAILOVER_TIMEOUT_MILLIS = 10000;

	private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private final List<RedisServerProcess> servers;

	private final List<RedisServerProcess> sentinels;

	private LocalSentinel(List<RedisServerProcess> servers, List<RedisServerProcess> sentinels) {
		this.servers = List.copyOf(servers);
		this.sentinels = List.copyOf(sentinels);
	}

	/**
	 * Start a primary, its replicas and the Sentinels that watch them.
	 * @param binary the server binary, run as a Sentinel with {@code --sentinel}
	 * @param replicas the number of replicas, at least 1
	 * @param sentinels the number of Sentinels, at least 3 (a quorum of 2)
	 * @return the running deployment
	 * @throws IllegalStateException if it is not formed within 30 seconds
	 */
	public static LocalSentinel start(ServerBinary binary, int replicas, int sentinels) {
		if (replicas < 1) {
			throw new IllegalArgumentException("A failover needs at least one replica, got " + replicas);
		}
		if (sentinels < 3) {
			throw new IllegalArgumentException("A quorum of 2 needs at least three Sentinels, got " + sentinels);
		}
		List<RedisServerProcess> servers = new ArrayList<>();
		List<RedisServerProcess> watchers = new ArrayList<>();
		try {
			ServerOptions dataOptions = ServerOptions.builder().extraArgs("--repl-diskless-sync-delay", "0").build();
			RedisServerProcess primary = RedisServerProcess.start(binary, dataOptions);
			servers.add(primary);
			for (int i = 0; i < replicas; i++) {
				servers.add(RedisServerProcess.start(binary,
						dataOptions.toBuilder()
							.extraArgs("--replicaof", primary.host(), String.valueOf(primary.port()))
							.build()));
			}
			Deadline deadline = Deadline.after(FORMATION_TIMEOUT);
			servers.subList(1, servers.size()).forEach((replica) -> awaitInSync(replica, deadline));
			for (int i = 0; i < sentinels; i++) {
				RedisServerProcess sentinel = RedisServerProcess.start(binary,
						ServerOptions.builder().sentinel(true).build());
				watchers.add(sentinel);
				monitor(sentinel, primary);
			}
			watchers.forEach((sentinel) -> awaitAware(sentinel, replicas, sentinels - 1, deadline));
			logger.log(Level.INFO, () -> "Started a primary with " + replicas + " replicas and " + sentinels
					+ " Sentinels: " + binary.describe());
			return new LocalSentinel(servers, watchers);
		}
		catch (RuntimeException ex) {
			Stream.concat(watchers.stream(), servers.stream()).forEach(RedisServerProcess::close);
			throw ex;
		}
	}

	/**
	 * Return the data servers, in start order: the first primary, then its replicas.
	 * @return the servers, dead or alive
	 */
	public List<RedisServerProcess> servers() {
		return this.servers;
	}

	/**
	 * Return the Sentinels.
	 * @return the Sentinels
	 */
	public List<RedisServerProcess> sentinels() {
		return this.sentinels;
	}

	/**
	 * Return the {@code host:port} of every Sentinel, as
	 * {@code spring.data.redis.sentinel.nodes} wants them.
	 * @return e.g. {@code [127.0.0.1:26001, 127.0.0.1:26002, 127.0.0.1:26003]}
	 */
	public List<String> sentinelNodes() {
		return this.sentinels.stream().map(RedisServerProcess::address).toList();
	}

	/**
	 * Return the name the Sentinels monitor the primary under, as
	 * {@code spring.data.redis.sentinel.master} wants it.
	 * @return {@value #MASTER_NAME}
	 */
	public String masterName() {
		return MASTER_NAME;
	}

	/**
	 * Return the live server that the Sentinels name as primary and that says so itself
	 * ({@code ROLE}).
	 * @return the primary; after a failover, the promoted replica
	 * @throws IllegalStateException if no Sentinel answers or the server they name is not
	 * a live primary
	 */
	public RedisServerProcess primary() {
		return currentPrimary()
			.orElseThrow(() -> new IllegalStateException("No live primary agreed on by the Sentinels of " + this));
	}

	/**
	 * Return the live servers that are replicas right now, as {@code ROLE} reports it.
	 * @return the replicas
	 */
	public List<RedisServerProcess> replicas() {
		return this.servers.stream()
			.filter((server) -> server.isAlive() && "slave".equals(LocalCluster.roleOf(server)))
			.toList();
	}

	/**
	 * Kill a data server or a Sentinel with {@code SIGKILL}.
	 * @param process a process of this deployment
	 */
	public void kill(RedisServerProcess process) {
		if (!this.servers.contains(process) && !this.sentinels.contains(process)) {
			throw new IllegalArgumentException(process + " is not part of " + this);
		}
		process.kill();
	}

	/**
	 * Ask a Sentinel for a failover while the primary is up ({@code SENTINEL FAILOVER}),
	 * as an operator does before maintenance: a replica is promoted and the old primary,
	 * still running, is made its replica.
	 * @param timeout how long to wait for the new primary
	 * @return the new primary
	 * @throws IllegalStateException if there is none in time
	 */
	public RedisServerProcess switchover(Duration timeout) {
		RedisServerProcess previous = primary();
		RedisServerProcess asked = this.sentinels.stream()
			.filter(RedisServerProcess::isAlive)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No Sentinel of " + this + " is running"));
		try (RespClient client = asked.openClient()) {
			client.command("SENTINEL", "FAILOVER", MASTER_NAME);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot ask " + asked.address() + " for a failover", ex);
		}
		return awaitFailover(previous, timeout);
	}

	/**
	 * Wait until the Sentinels name a live primary other than the given one, and that
	 * server answers {@code ROLE} as a primary: the failover after a {@link #kill} of it.
	 * @param previous the primary that was killed
	 * @param timeout how long to wait
	 * @return the new primary
	 * @throws IllegalStateException if there is none in time
	 */
	public RedisServerProcess awaitFailover(RedisServerProcess previous, Duration timeout) {
		Deadline deadline = Deadline.after(timeout);
		while (true) {
			Optional<RedisServerProcess> primary = currentPrimary();
			if (primary.isPresent() && primary.get() != previous) {
				return primary.get();
			}
			if (deadline.hasExpired()) {
				throw new IllegalStateException("No failover from " + previous.address() + " within "
						+ timeout.toMillis() + " ms; the Sentinels name " + primary.map(RedisServerProcess::address));
			}
			deadline.pause(POLL_INTERVAL);
		}
	}

	/**
	 * Kill every process and delete their directories.
	 */
	@Override
	public void close() {
		Stream.concat(this.sentinels.stream(), this.servers.stream()).forEach(RedisServerProcess::close);
	}

	@Override
	public String toString() {
		return "LocalSentinel" + sentinelNodes();
	}

	private Optional<RedisServerProcess> currentPrimary() {
		List<Integer> named = new ArrayList<>();
		for (RedisServerProcess sentinel : this.sentinels) {
			if (sentinel.isAlive()) {
				masterPortOf(sentinel).ifPresent(named::add);
			}
		}
		if (named.isEmpty() || named.stream().distinct().count() > 1) {
			return Optional.empty();
		}
		return this.servers.stream()
			.filter((server) -> server.port() == named.get(0) && server.isAlive())
			.filter((server) -> "master".equals(LocalCluster.roleOf(server)))
			.findFirst();
	}

	private static Optional<Integer> masterPortOf(RedisServerProcess sentinel) {
		try (RespClient client = sentinel.openClient()) {
			Object address = client.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
			if (address instanceof List<?> parts && parts.size() == 2 && parts.get(1) instanceof String port) {
				return Optional.of(Integer.parseInt(port));
			}
			return Optional.empty();
		}
		catch (IOException | UncheckedIOException | RespErrorException ex) {
			return Optional.empty();
		}
	}

	private static void monitor(RedisServerProcess sentinel, RedisServerProcess primary) {
		try (RespClient client = sentinel.openClient()) {
			client.command("SENTINEL", "MONITOR", MASTER_NAME, primary.host(), String.valueOf(primary.port()), "2");
			client.command("SENTINEL", "SET", MASTER_NAME, "down-after-milliseconds", String.valueOf(DOWN_AFTER_MILLIS),
					"failover-timeout", String.valueOf(FAILOVER_TIMEOUT_MILLIS));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot configure the Sentinel on " + sentinel.address(), ex);
		}
	}

	private static void awaitInSync(RedisServerProcess replica, Deadline deadline) {
		awaitTrue(deadline, replica + " did not sync with its primary", () -> {
			try (RespClient client = replica.openClient()) {
				return client.commandForString("INFO", "replication").contains("master_link_status:up");
			}
		});
	}

	private static void awaitAware(RedisServerProcess sentinel, int replicas, int others, Deadline deadline) {
		awaitTrue(deadline, "The Sentinel on " + sentinel.address() + " did not discover " + replicas + " replicas and "
				+ others + " other Sentinels", () -> {
					try (RespClient client = sentinel.openClient()) {
						return client.command("SENTINEL", "REPLICAS", MASTER_NAME) instanceof List<?> known
								&& known.size() == replicas
								&& client.command("SENTINEL", "SENTINELS", MASTER_NAME) instanceof List<?> peers
								&& peers.size() == others;
					}
				});
	}

	private static void awaitTrue(Deadline deadline, String failure, Check check) {
		while (true) {
			try {
				if (check.holds()) {
					return;
				}
			}
			catch (IOException | UncheckedIOException | RespErrorException ex) {
				// not up yet; tried again until the deadline
			}
			if (deadline.hasExpired()) {
				throw new IllegalStateException(failure + " within " + deadline.timeout().toSeconds() + " s");
			}
			deadline.pause(POLL_INTERVAL);
		}
	}

	/**
	 * A readiness condition that may fail with an I/O error while a process starts.
	 */
	@FunctionalInterface
	private interface Check {

		boolean holds() throws IOException;

	}

}
