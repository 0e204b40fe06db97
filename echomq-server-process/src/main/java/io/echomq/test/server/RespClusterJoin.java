package io.echomq.test.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins nodes into a cluster through RESP alone: assigns even slot ranges to the masters
 * ({@code CLUSTER ADDSLOTS} in batches, as Redis 6.2 has no {@code ADDSLOTSRANGE}),
 * introduces every node to the first ({@code CLUSTER MEET}) and, once all have met,
 * attaches each replica to its master ({@code CLUSTER REPLICATE}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class RespClusterJoin {

	private static final int SLOTS_PER_COMMAND = 1024;

	private static final Duration RETRY_INTERVAL = Duration.ofMillis(50);

	private RespClusterJoin() {
	}

	/**
	 * Join the nodes; replica {@code i} follows master {@code i % masters.size()}.
	 * @param masters the nodes to become masters
	 * @param replicas the nodes to become replicas
	 * @param deadline when to give up
	 */
	static void join(List<RedisServerProcess> masters, List<RedisServerProcess> replicas, Deadline deadline) {
		List<RedisServerProcess> all = new ArrayList<>(masters);
		all.addAll(replicas);
		try {
			assignSlots(masters);
			meet(all);
			ClusterReadiness.awaitAcquainted(all, deadline);
			List<String> masterIds = new ArrayList<>();
			for (RedisServerProcess master : masters) {
				try (RespClient client = master.openClient()) {
					masterIds.add(client.commandForString("CLUSTER", "MYID"));
				}
			}
			for (int i = 0; i < replicas.size(); i++) {
				replicate(replicas.get(i), masterIds.get(i % masters.size()), deadline);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot join cluster nodes through RESP", ex);
		}
	}

	private static void assignSlots(List<RedisServerProcess> masters) throws IOException {
		int count = masters.size();
		for (int i = 0; i < count; i++) {
			int from = i * ClusterReadiness.SLOTS / count;
			int to = (i + 1) * ClusterReadiness.SLOTS / count;
			try (RespClient client = masters.get(i).openClient()) {
				// Distinct epochs up front, so that no epoch collision has to be resolved
				// later
				client.command("CLUSTER", "SET-CONFIG-EPOCH", String.valueOf(i + 1));
				for (int start = from; start < to; start += SLOTS_PER_COMMAND) {
					int end = Math.min(to, start + SLOTS_PER_COMMAND);
					List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
					for (int slot = start; slot < end; slot++) {
						command.add(String.valueOf(slot));
					}
					client.command(command.toArray(String[]::new));
				}
			}
		}
	}

	private static void meet(List<RedisServerProcess> nodes) throws IOException {
		RedisServerProcess first = nodes.get(0);
		try (RespClient client = first.openClient()) {
			for (RedisServerProcess other : nodes.subList(1, nodes.size())) {
				client.command("CLUSTER", "MEET", other.host(), String.valueOf(other.port()));
			}
		}
	}

	private static void replicate(RedisServerProcess replica, String masterId, Deadline deadline) throws IOException {
		try (RespClient client = replica.openClient()) {
			while (true) {
				try {
					client.command("CLUSTER", "REPLICATE", masterId);
					return;
				}
				catch (RespErrorException ex) {
					// The replica may not know the master as a master yet
					if (deadline.hasExpired()) {
						throw new IllegalStateException(
								replica.address() + " cannot replicate " + masterId + ": " + ex.getMessage(), ex);
					}
					deadline.pause(RETRY_INTERVAL);
				}
			}
		}
	}

}
