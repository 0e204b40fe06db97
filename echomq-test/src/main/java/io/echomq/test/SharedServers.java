package io.echomq.test;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

/**
 * Holds the servers and the cluster that the tests of one JVM share, and releases them
 * when the JVM exits. A shared server whose process died is replaced on next use.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class SharedServers {

	private static final String ANY = "any";

	private static final Map<String, SharedTestServer> servers = new HashMap<>();

	private static @Nullable LocalCluster cluster;

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(SharedServers::releaseAll, "echomq-shared-servers"));
	}

	private SharedServers() {
	}

	static synchronized TestServer server(@Nullable ServerFlavor flavor, Supplier<TestServer> starter) {
		String key = (flavor != null) ? flavor.name() : ANY;
		SharedTestServer server = servers.get(key);
		if (server != null && !server.process().map(RedisServerProcess::isAlive).orElse(true)) {
			server.release();
			server = null;
		}
		if (server == null) {
			server = new SharedTestServer(starter.get());
			servers.put(key, server);
		}
		return server;
	}

	static synchronized LocalCluster cluster(Supplier<LocalCluster> starter) {
		LocalCluster current = cluster;
		if (current != null && !current.isRunning()) {
			current.close();
			current = null;
		}
		if (current == null) {
			current = starter.get();
			cluster = current;
		}
		return current;
	}

	private static synchronized void releaseAll() {
		servers.values().forEach(SharedTestServer::release);
		servers.clear();
		LocalCluster current = cluster;
		if (current != null) {
			current.close();
			cluster = null;
		}
	}

}
