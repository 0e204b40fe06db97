package io.echomq.test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/**
 * Holds the servers and the cluster that the tests of one JVM share, and releases them
 * when the JVM exits. In a JVM that ran a Spring application (a {@code @SpringBootTest}),
 * Spring Boot's shutdown hook closes the contexts still open (the test framework's cached
 * ones) beside the JVM's other hooks: the servers are released after it is done (from its
 * shutdown handlers, waited for at most {@link #EXIT_GRACE}), since a context whose
 * listeners stop after its server is gone waits out its command timeouts, and the JVM's
 * exit with it. A shared server whose process died is replaced on next use.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class SharedServers {

	private static final String ANY = "any";

	/** Longest the release at exit waits for Spring Boot's shutdown hook. */
	static final Duration EXIT_GRACE = Duration.ofSeconds(20);

	private static final Map<String, SharedTestServer> servers = new HashMap<>();

	private static final CountDownLatch released = new CountDownLatch(1);

	private static volatile boolean springApplicationStarted;

	private static @Nullable LocalCluster cluster;

	static {
		// run by Spring Boot's shutdown hook, when a Spring application enabled it, once
		// its contexts closed
		SpringApplication.getShutdownHandlers().add(SharedServers::releaseAll);
		Runtime.getRuntime().addShutdownHook(new Thread(SharedServers::releaseAtExit, "echomq-shared-servers"));
	}

	private SharedServers() {
	}

	static TestServer server(@Nullable ServerFlavor flavor, Supplier<TestServer> starter) {
		return serverNamed((flavor != null) ? flavor.name() : ANY, starter);
	}

	static synchronized TestServer serverNamed(String key, Supplier<TestServer> starter) {
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

	/**
	 * Note that a Spring application started in this JVM, so its shutdown hook will close
	 * its contexts at exit ({@link SpringApplicationWatch}).
	 */
	static void springApplicationStarting() {
		springApplicationStarted = true;
	}

	private static void releaseAtExit() {
		if (springApplicationStarted && holdsAny()) {
			try {
				released.await(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		releaseAll();
	}

	private static synchronized boolean holdsAny() {
		return !servers.isEmpty() || cluster != null;
	}

	private static synchronized void releaseAll() {
		try {
			servers.values().forEach(SharedTestServer::release);
			servers.clear();
			LocalCluster current = cluster;
			if (current != null) {
				current.close();
				cluster = null;
			}
		}
		finally {
			released.countDown();
		}
	}

}
