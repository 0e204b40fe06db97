package io.echomq.test;

import java.util.Optional;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TestServer} with a fixed address and an action that releases it.
 *
 * @param host the host to connect to
 * @param port the port to connect to
 * @param flavor the kind of server
 * @param version the server version
 * @param source which step of the resolution chain supplied the server
 * @param ownedProcess the server process when this JVM owns it, else {@code null}
 * @param release what {@link #close()} runs
 * @author EchoMQ
 * @since 0.1.0
 */
record ResolvedTestServer(String host, int port, ServerFlavor flavor, String version, ServerSource source,
		@Nullable RedisServerProcess ownedProcess, Runnable release) implements TestServer {

	static ResolvedTestServer owned(RedisServerProcess process, ServerSource source) {
		return new ResolvedTestServer(process.host(), process.port(), process.flavor(), process.version(), source,
				process, process::close);
	}

	static ResolvedTestServer external(String host, int port, ServerIdentity identity, ServerSource source,
			Runnable release) {
		return new ResolvedTestServer(host, port, identity.flavor(), identity.version(), source, null, release);
	}

	@Override
	public Optional<RedisServerProcess> process() {
		return Optional.ofNullable(this.ownedProcess);
	}

	@Override
	public void close() {
		this.release.run();
	}

	@Override
	public String toString() {
		return this.flavor + " " + this.version + " at " + url() + " from " + this.source;
	}

}
