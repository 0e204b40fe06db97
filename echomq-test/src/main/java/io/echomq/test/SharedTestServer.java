package io.echomq.test;

import java.util.Optional;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;

/**
 * A {@link TestServer} shared by the tests of a JVM: {@link #close()} does nothing, the
 * server is released by a shutdown hook.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class SharedTestServer implements TestServer {

	private final TestServer delegate;

	SharedTestServer(TestServer delegate) {
		this.delegate = delegate;
	}

	@Override
	public String host() {
		return this.delegate.host();
	}

	@Override
	public int port() {
		return this.delegate.port();
	}

	@Override
	public ServerFlavor flavor() {
		return this.delegate.flavor();
	}

	@Override
	public String version() {
		return this.delegate.version();
	}

	@Override
	public ServerSource source() {
		return this.delegate.source();
	}

	@Override
	public Optional<RedisServerProcess> process() {
		return this.delegate.process();
	}

	@Override
	public void close() {
		// Shared: released when the JVM exits
	}

	void release() {
		this.delegate.close();
	}

	@Override
	public String toString() {
		return "shared " + this.delegate;
	}

}
