package io.echomq.test.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks loopback ports that are free right now. Ports come from below the Linux ephemeral
 * range (32768 and up), so that outgoing connections cannot take a port while its server
 * is down for a restart. Cluster nodes draw from a range of their own whose cluster bus
 * ports (port + 10000) stay below the ephemeral range as well.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class FreePorts {

	static final int CLUSTER_BUS_OFFSET = 10000;

	private static final int STANDALONE_FROM = 26000;

	private static final int STANDALONE_TO = 32000;

	private static final int CLUSTER_FROM = 10000;

	private static final int CLUSTER_TO = 16000;

	private static final int ATTEMPTS = 200;

	private FreePorts() {
	}

	/**
	 * Pick a free port.
	 * @param clusterBus whether port + 10000 must be free too
	 * @return the port
	 */
	static int pick(boolean clusterBus) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int port = clusterBus ? random.nextInt(CLUSTER_FROM, CLUSTER_TO)
					: random.nextInt(STANDALONE_FROM, STANDALONE_TO);
			if (isFree(port) && (!clusterBus || isFree(port + CLUSTER_BUS_OFFSET))) {
				return port;
			}
		}
		throw new IllegalStateException("No free loopback port found after " + ATTEMPTS + " attempts");
	}

	static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
