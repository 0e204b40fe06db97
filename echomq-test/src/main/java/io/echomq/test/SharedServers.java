package io.echomq.test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/**
 * Holds the servers and the cluster that the tests of one JVM share, and releases them
 * when the JVM exits, after Spring Boot's shutdown hook closed the application contexts
 * still open (the test framework's cached ones): a context whose listeners stop after
 * its server is gone would wait out its command timeouts, and the JVM's exit with it.
 * A shared server whose process died is replaced on next use.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class SharedServers {

	private static final String ANY = "any";

	/** How long the reaper of server processes waits for the release below at JVM exit. */
	static final Duration EXIT_GRACE = Duration.ofSeconds(30);

	private static final Map<String, SharedTestServer> servers = new HashMap<>();

	private static @Nullable LocalCluster cluster;

	static {
		// run by Spring Boot's shutdown hook once every context it knows of is closed
		SpringApplication.getShutdownHandlers().add(SharedServers::releaseAll);
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
			server.process().ifPresent((process) -> process.setExitGrace(EXIT_GRACE));
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
			current.nodes().forEach((node) -> node.setExitGrace(EXIT_GRACE));
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
