package io.echomq.test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.echomq.test.server.RespClient;
import io.echomq.test.server.RespErrorException;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

/**
 * The flavor and version of a running server, as its {@code INFO server} reports them.
 *
 * @param flavor the kind of server
 * @param version its version
 * @author EchoMQ
 * @since 0.1.0
 */
record ServerIdentity(ServerFlavor flavor, String version) {

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	/**
	 * Ask a server who it is, retrying until it answers or the timeout passes.
	 * @param host the host
	 * @param port the port
	 * @param timeout how long to keep trying
	 * @return the identity
	 * @throws IllegalStateException if the server does not answer in time
	 */
	static ServerIdentity probe(String host, int port, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			try (RespClient client = RespClient.connect(host, port, Duration.ofSeconds(1))) {
				return parse(client.commandForString("INFO", "server"));
			}
			catch (IOException | RespErrorException ex) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					throw new IllegalStateException(
							"No Redis or Valkey server answers at " + host + ":" + port + ": " + ex.getMessage(), ex);
				}
				LockSupport.parkNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(POLL_INTERVAL.toMillis())));
				if (Thread.interrupted()) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while probing " + host + ":" + port, ex);
				}
			}
		}
	}

	static ServerIdentity parse(String info) {
		String valkey = field(info, "valkey_version");
		if (valkey != null) {
			return new ServerIdentity(ServerFlavor.VALKEY, valkey);
		}
		String redis = field(info, "redis_version");
		return new ServerIdentity(ServerFlavor.REDIS, (redis != null) ? redis : "unknown");
	}

	private static @Nullable String field(String info, String name) {
		for (String line : info.split("\r?\n")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).strip();
			}
		}
		return null;
	}

}
