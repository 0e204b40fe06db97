package io.echomq.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.echomq.EchoMqTemplate;
import io.echomq.core.Durability;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.ReplicationTimeoutException;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What a replica-acknowledged enqueue ({@link Durability}) costs and what it saves: the
 * client wall time and the server time per enqueue with and without it (one producer
 * thread, a primary and one replica on loopback), and the acknowledged enqueues lost when
 * the primary is killed ({@code SIGKILL}) while its replica lags (frozen with
 * {@code SIGSTOP} for a second first, 4 KB payloads), counted on the replica promoted by
 * hand ({@code REPLICAOF NO ONE}).
 * <p>
 * {@code java -cp ... io.echomq.benchmark.DurableEnqueueFigure [enqueues] [kill runs]}
 *
 * @author EchoMQ
 */
public final class DurableEnqueueFigure {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	// big enough that what the primary sends a frozen replica overflows the socket
	// buffers and stays in the primary's memory, which a kill loses
	private static final String BIG = "\"" + "x".repeat(4000) + "\"";

	private DurableEnqueueFigure() {
	}

	/**
	 * Print the figures.
	 * @param args the enqueues per cost run (default 5000), the kill runs per mode
	 * (default 3)
	 * @throws Exception on a failure to start or reach the servers
	 */
	public static void main(String[] args) throws Exception {
		run(args, System.out);
	}

	static void run(String[] args, PrintStream out) throws Exception {
		int enqueues = (args.length > 0) ? Integer.parseInt(args[0]) : 5000;
		int kills = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		out.println("# " + Runtime.getRuntime().availableProcessors()
				+ " cores shared by the JVM and both servers; load " + load());
		try (Pair pair = Pair.start()) {
			try (Client client = new Client(pair.primary)) {
				for (int round = 0; round < 3; round++) {
					for (boolean durable : new boolean[] { false, true }) {
						cost(client, pair, durable, (round == 0) ? enqueues / 5 : enqueues, round, out);
					}
				}
			}
		}
		for (int run = 1; run <= kills; run++) {
			for (boolean durable : new boolean[] { false, true }) {
				try (Pair pair = Pair.start(); Client client = new Client(pair.primary)) {
					kill(client, pair, durable, run, out);
				}
			}
		}
	}

	private static void cost(Client client, Pair pair, boolean durable, int count, int round, PrintStream out)
			throws IOException {
		String queue = durable ? "durable" : "plain";
		command(pair.primary, "CONFIG", "RESETSTAT");
		long started = System.nanoTime();
		for (int i = 0; i < count; i++) {
			client.template.enqueue(queue, "{\"n\":" + i + "}");
		}
		long wallNanos = System.nanoTime() - started;
		String stats = command(pair.primary, "INFO", "commandstats").toString();
		if (round > 0) {
			out.printf(
					"DURABLE-COST mode=%s enqueues=%d clientMicrosPerEnqueue=%.1f serverEvalshaUsec=%d "
							+ "serverWaitUsec=%d serverMicrosPerEnqueue=%.1f%n",
					durable ? "wait-1" : "none", count, wallNanos / 1000.0 / count, usec(stats, "evalsha"),
					usec(stats, "wait"), (usec(stats, "evalsha") + usec(stats, "wait")) / (double) count);
		}
	}

	private static void kill(Client client, Pair pair, boolean durable, int run, PrintStream out) throws Exception {
		String queue = durable ? "durable" : "plain";
		List<JobId> acknowledged = new ArrayList<>();
		AtomicBoolean stop = new AtomicBoolean();
		int[] unconfirmed = new int[1];
		int[] failed = new int[1];
		Thread producer = new Thread(() -> {
			while (!stop.get()) {
				try {
					JobId id = client.template.enqueue(queue, BIG);
					synchronized (acknowledged) {
						acknowledged.add(id);
					}
				}
				catch (ReplicationTimeoutException ex) {
					unconfirmed[0]++;
				}
				catch (RuntimeException ex) {
					failed[0]++;
					if (!pair.primary.process().orElseThrow().isAlive()) {
						return;
					}
				}
			}
		});
		producer.start();
		Thread.sleep(1000);
		signal(pair.replica, "STOP");
		Thread.sleep(1000);
		pair.primary.process().orElseThrow().kill();
		long killedAt = System.nanoTime();
		signal(pair.replica, "CONT");
		stop.set(true);
		producer.join(30_000);
		command(pair.replica, "REPLICAOF", "NO", "ONE");
		List<JobId> snapshot;
		synchronized (acknowledged) {
			snapshot = List.copyOf(acknowledged);
		}
		int lost = 0;
		for (JobId id : snapshot) {
			if (!Long.valueOf(1).equals(command(pair.replica, "EXISTS", client.jobs.keys(queue).row(id)))) {
				lost++;
			}
		}
		out.printf(
				"DURABLE-KILL run=%d mode=%s acknowledged=%d lostAcknowledged=%d unconfirmed=%d errors=%d "
						+ "producerStopMillis=%d%n",
				run, durable ? "wait-1" : "none", snapshot.size(), lost, unconfirmed[0], failed[0],
				(System.nanoTime() - killedAt) / 1_000_000);
	}

	private static long usec(String stats, String command) {
		int at = stats.indexOf("cmdstat_" + command + ":");
		if (at < 0) {
			return 0;
		}
		int start = stats.indexOf("usec=", at) + 5;
		return Long.parseLong(stats.substring(start, stats.indexOf(',', start)));
	}

	private static String load() {
		try {
			return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip();
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	private static Object command(TestServer server, String... args) throws IOException {
		try (RespClient client = server.process().orElseThrow().openClient()) {
			return client.command(args);
		}
	}

	private static void signal(TestServer server, String signal) throws IOException, InterruptedException {
		new ProcessBuilder("kill", "-" + signal, Long.toString(server.process().orElseThrow().pid())).inheritIO()
			.start()
			.waitFor();
	}

	/**
	 * A template on its own connection factory, with a queue {@code durable} waiting for
	 * one replica and a queue {@code plain} that does not.
	 */
	private static final class Client implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private final Engine jobs;

		private final EchoMqTemplate template;

		Client(TestServer primary) {
			RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(primary.host(),
					primary.port());
			this.factory = new LettuceConnectionFactory(configuration);
			this.factory.afterPropertiesSet();
			this.factory.start();
			this.jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(this.factory)), Keyspace.defaults());
			this.template = new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()),
					64 * 1024, (name) -> 3, List.of());
			this.template.setDurability("durable", Durability.replicas(1, TIMEOUT));
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

	/**
	 * A primary and one replica in sync with it, without persistence.
	 */
	private static final class Pair implements AutoCloseable {

		private final TestServer primary;

		private final TestServer replica;

		private Pair(TestServer primary, TestServer replica) {
			this.primary = primary;
			this.replica = replica;
		}

		static Pair start() throws Exception {
			ServerOptions options = ServerOptions.builder().extraArgs("--repl-diskless-sync-delay", "0").build();
			TestServer primary = TestRedisServer.startOwned(ServerFlavor.VALKEY, options);
			TestServer replica = TestRedisServer.startOwned(ServerFlavor.VALKEY,
					options.toBuilder()
						.extraArgs("--replicaof", primary.host(), String.valueOf(primary.port()))
						.build());
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (!command(replica, "INFO", "replication").toString().contains("master_link_status:up")) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("The replica did not sync");
				}
				Thread.sleep(50);
			}
			return new Pair(primary, replica);
		}

		@Override
		public void close() {
			this.replica.close();
			this.primary.close();
		}

	}

}
