package io.echomq.test;

import java.util.Optional;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

/**
 * A {@link TestServer} with a fixed address and an action that releases it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ResolvedTestServer implements TestServer {

	private final String host;

	private final int port;

	private final ServerFlavor flavor;

	private final String version;

	private final ServerSource source;

	private final @Nullable RedisServerProcess process;

	private final Runnable release;

	private ResolvedTestServer(String host, int port, ServerFlavor flavor, String version, ServerSource source,
			@Nullable RedisServerProcess process, Runnable release) {
		this.host = host;
		this.port = port;
		this.flavor = flavor;
		this.version = version;
		this.source = source;
		this.process = process;
		this.release = release;
	}

	static ResolvedTestServer owned(RedisServerProcess process, ServerSource source) {
		return new ResolvedTestServer(process.host(), process.port(), process.flavor(), process.version(), source,
				process, process::close);
	}

	static ResolvedTestServer external(String host, int port, ServerIdentity identity, ServerSource source,
			Runnable release) {
		return new ResolvedTestServer(host, port, identity.flavor(), identity.version(), source, null, release);
	}

	@Override
	public String host() {
		return this.host;
	}

	@Override
	public int port() {
		return this.port;
	}

	@Override
	public ServerFlavor flavor() {
		return this.flavor;
	}

	@Override
	public String version() {
		return this.version;
	}

	@Override
	public ServerSource source() {
		return this.source;
	}

	@Override
	public Optional<RedisServerProcess> process() {
		return Optional.ofNullable(this.process);
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
