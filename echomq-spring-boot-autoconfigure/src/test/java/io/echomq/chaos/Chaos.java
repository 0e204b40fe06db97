package io.echomq.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.test.TestServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Shared helpers of the chaos tests: unique key prefixes, where a queue's jobs are, the
 * audit, raw server commands, and the one-line {@code CHAOS ...} summary every fault test
 * prints.
 *
 * @author EchoMQ
 */
final class Chaos {

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> COUNTS_SCRIPT = RedisScript
		.of("local n = {} for i = 1, #KEYS do n[i] = redis.call('ZCARD', KEYS[i]) end return n", List.class);

	@SuppressWarnings("unchecked")
	private static final RedisScript<List<Long>> COUNTS = (RedisScript<List<Long>>) (RedisScript<?>) COUNTS_SCRIPT;

	/**
	 * How far past its lease an active id may be at an audit: reap interval plus slack.
	 */
	static final Duration REAP_TOLERANCE = Duration.ofSeconds(5);

	private static final Path FIGURES = Path.of("target", "chaos-figures.txt");

	private Chaos() {
	}

	/**
	 * Return a key prefix no other test uses.
	 * @return the prefix
	 */
	static String uniquePrefix() {
		return "c" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
	}

	/**
	 * Count a queue's ids in each location.
	 * @param jobs the engine
	 * @param queue the queue
	 * @return the counts
	 */
	static Locations locations(Engine jobs, String queue) {
		// one read-only script, so that a job moving between two locations (a promote, a
		// retry) cannot be missed between two separate reads
		List<String> keys = new ArrayList<>();
		for (KeyType type : List.of(KeyType.PENDING, KeyType.ACTIVE, KeyType.SCHEDULE, KeyType.DEAD)) {
			keys.add(jobs.keyspace().queueKey(queue, type.suffix()));
		}
		List<Long> sizes = jobs.executor().getTemplate().execute(COUNTS, keys);
		return new Locations(sizes.get(0), sizes.get(1), sizes.get(2), sizes.get(3));
	}

	/**
	 * Return every id in any location of a queue.
	 * @param jobs the engine
	 * @param queue the queue
	 * @return the ids
	 */
	static Set<String> locatedIds(Engine jobs, String queue) {
		StringRedisTemplate template = jobs.executor().getTemplate();
		Set<String> ids = new HashSet<>();
		for (JobState state : JobState.values()) {
			Set<String> members = template.opsForZSet().range(jobs.keyspace().locationKey(queue, state), 0, -1);
			if (members != null) {
				ids.addAll(members);
			}
		}
		return ids;
	}

	/**
	 * Return the ids in one location of a queue.
	 * @param jobs the engine
	 * @param queue the queue
	 * @param type the location
	 * @return the ids
	 */
	static Set<String> ids(Engine jobs, String queue, KeyType type) {
		Set<String> members = jobs.executor()
			.getTemplate()
			.opsForZSet()
			.range(jobs.keyspace().queueKey(queue, type.suffix()), 0, -1);
		return (members != null) ? members : Set.of();
	}

	/**
	 * Return a queue's metrics counters.
	 * @param jobs the engine
	 * @param queue the queue
	 * @return the counters by name
	 */
	static Map<String, String> metrics(Engine jobs, String queue) {
		return jobs.executor()
			.getTemplate()
			.<String, String>opsForHash()
			.entries(jobs.keyspace().queueKey(queue, KeyType.METRICS.suffix()));
	}

	/**
	 * Return one metrics counter.
	 * @param jobs the engine
	 * @param queue the queue
	 * @param name the counter
	 * @return its value, 0 when absent
	 */
	static long metric(Engine jobs, String queue, String name) {
		String value = metrics(jobs, queue).get(name);
		return (value != null) ? Long.parseLong(value) : 0;
	}

	/**
	 * Audit a queue with the chaos tolerance.
	 * @param jobs the engine
	 * @param queue the queue
	 * @return the report
	 */
	static AuditReport audit(Engine jobs, String queue) {
		return new QueueAuditor(jobs).audit(queue, REAP_TOLERANCE);
	}

	/**
	 * Run one command on a fresh RESP connection to the server.
	 * @param server the server
	 * @param args the command and its arguments
	 * @return the reply
	 */
	static Object command(TestServer server, String... args) {
		return command(server.host(), server.port(), Duration.ofSeconds(10), args);
	}

	/**
	 * Run one command on a fresh RESP connection.
	 * @param host the host
	 * @param port the port
	 * @param timeout the read timeout
	 * @param args the command and its arguments
	 * @return the reply
	 */
	static Object command(String host, int port, Duration timeout, String... args) {
		try (RespClient client = RespClient.connect(host, port, timeout)) {
			return client.command(args);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot run " + String.join(" ", args) + " on " + host + ":" + port, ex);
		}
	}

	/**
	 * Describe a server for a summary line.
	 * @param server the server
	 * @return e.g. {@code valkey-8.0.1}
	 */
	static String describe(TestServer server) {
		return server.flavor().name().toLowerCase(Locale.ROOT) + "-" + server.version();
	}

	/**
	 * Describe a cluster of three masters with one replica each for a summary line.
	 * @param master one of its masters
	 * @return e.g. {@code valkey-8.0.1-cluster-3x1}
	 */
	static String describeCluster(RedisServerProcess master) {
		return master.flavor().name().toLowerCase(Locale.ROOT) + "-" + master.version() + "-cluster-3x1";
	}

	/**
	 * Return the master that serves a queue's keys.
	 * @param cluster the cluster
	 * @param jobs the engine whose keyspace names the keys
	 * @param queue the queue, or one partition of it
	 * @return the master
	 */
	static RedisServerProcess masterOf(LocalCluster cluster, Engine jobs, String queue) {
		return cluster.masterFor(jobs.keyspace().queueKey(queue, KeyType.PENDING.suffix()));
	}

	/**
	 * Return the partitions of a queue that a master serves.
	 * @param cluster the cluster
	 * @param master the master
	 * @param jobs the engine whose keyspace names the keys
	 * @param partitions the queue's partitions
	 * @return the indexes of the partitions on the master
	 */
	static Set<Integer> partitionsOn(LocalCluster cluster, RedisServerProcess master, Engine jobs,
			QueuePartitions partitions) {
		Set<Integer> on = new HashSet<>();
		for (int i = 0; i < partitions.count(); i++) {
			if (masterOf(cluster, jobs, partitions.name(i)) == master) {
				on.add(i);
			}
		}
		return on;
	}

	/**
	 * Print the one-line summary of a fault run, {@code CHAOS fault=<fault> k=v ...}, to
	 * standard output and append it to {@code target/chaos-figures.txt}.
	 * @param fault the fault
	 * @param figures alternating names and values
	 * @return the line
	 */
	static String report(String fault, Object... figures) {
		StringBuilder line = new StringBuilder("CHAOS fault=").append(fault);
		for (int i = 0; i + 1 < figures.length; i += 2) {
			Object value = figures[i + 1];
			String text = (value instanceof Double number) ? String.format(Locale.ROOT, "%.1f", number)
					: String.valueOf(value);
			line.append(' ').append(figures[i]).append('=').append(text);
		}
		String result = line.toString();
		System.out.println(result);
		try {
			if (Files.isDirectory(FIGURES.getParent())) {
				Files.writeString(FIGURES, result + System.lineSeparator(), StandardCharsets.UTF_8,
						StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
		}
		catch (IOException ex) {
			// the figures file is a convenience; the line is on standard output
		}
		return result;
	}

	/**
	 * Return the longest time between a start and the first of some instants, or between
	 * two of them in a row, counting only those from the start up to an end.
	 * @param instants the instants ({@link System#nanoTime()}), in any order
	 * @param from the start
	 * @param until the end ({@code Long.MAX_VALUE} for none)
	 * @return the longest gap in nanoseconds
	 */
	static long longestGap(Collection<Long> instants, long from, long until) {
		List<Long> times = instants.stream().filter((at) -> at >= from && at <= until).sorted().toList();
		long longest = 0;
		long previous = from;
		for (long at : times) {
			longest = Math.max(longest, at - previous);
			previous = at;
		}
		return longest;
	}

	/**
	 * Return seconds since a start, for summaries.
	 * @param startNanos {@link System#nanoTime()} at the start
	 * @return the seconds
	 */
	static double secondsSince(long startNanos) {
		return (System.nanoTime() - startNanos) / 1e9;
	}

	/**
	 * Ids per location.
	 *
	 * @param pending ids waiting
	 * @param active ids leased
	 * @param schedule ids waiting for their run-at
	 * @param dead dead-lettered ids
	 */
	record Locations(long pending, long active, long schedule, long dead) {

		/**
		 * Return the ids that still have to run.
		 * @return pending, active and scheduled
		 */
		long live() {
			return this.pending + this.active + this.schedule;
		}

		/**
		 * Return every located id.
		 * @return the total
		 */
		long total() {
			return live() + this.dead;
		}

	}

}
