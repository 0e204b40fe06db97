package io.echomq.test.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the replies of {@code CLUSTER INFO} and {@code CLUSTER NODES}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ClusterNodeView {

	private ClusterNodeView() {
	}

	/**
	 * One line of {@code CLUSTER NODES}.
	 *
	 * @param id the node id
	 * @param port the client port
	 * @param flags the flags, e.g. {@code myself}, {@code master}, {@code slave},
	 * {@code fail?}, {@code handshake}
	 */
	record Node(String id, int port, Set<String> flags) {

		boolean isReplica() {
			return this.flags.contains("slave");
		}

		boolean isMyself() {
			return this.flags.contains("myself");
		}

		boolean isTroubled() {
			return this.flags.contains("fail") || this.flags.contains("fail?") || this.flags.contains("handshake")
					|| this.flags.contains("noaddr");
		}

	}

	/**
	 * Parse {@code key:value} lines as {@code CLUSTER INFO} and {@code INFO} print them.
	 * @param info the reply
	 * @return the fields
	 */
	static Map<String, String> fields(String info) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (String line : info.split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
			}
		}
		return fields;
	}

	/**
	 * Parse a {@code CLUSTER NODES} reply.
	 * @param reply the reply
	 * @return one entry per line
	 */
	static List<Node> nodes(String reply) {
		List<Node> nodes = new ArrayList<>();
		for (String line : reply.split("\r?\n")) {
			String[] parts = line.strip().split(" ");
			if (parts.length < 3) {
				continue;
			}
			nodes.add(new Node(parts[0], port(parts[1]), Set.copyOf(Arrays.asList(parts[2].split(",")))));
		}
		return nodes;
	}

	private static int port(String address) {
		// ip:port@cport[,hostname]
		int at = address.indexOf('@');
		String hostPort = (at >= 0) ? address.substring(0, at) : address;
		int colon = hostPort.lastIndexOf(':');
		try {
			return Integer.parseInt(hostPort.substring(colon + 1));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

}
