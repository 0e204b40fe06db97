package io.echomq.test;

import java.util.Optional;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerFlavor;

/**
 * A Redis or Valkey server for a test, as {@link TestRedisServer} supplies it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface TestServer extends AutoCloseable {

	/**
	 * Return the host to connect to.
	 * @return the host
	 */
	String host();

	/**
	 * Return the port to connect to.
	 * @return the port
	 */
	int port();

	/**
	 * Return the kind of server, as its {@code INFO server} reports it.
	 * @return the flavor
	 */
	ServerFlavor flavor();

	/**
	 * Return the server version, e.g. {@code 8.0.1}.
	 * @return the version
	 */
	String version();

	/**
	 * Return which step of the resolution chain supplied this server.
	 * @return the source
	 */
	ServerSource source();

	/**
	 * Return the server process when this JVM owns it, so that a test can kill or restart
	 * it.
	 * @return the process, or empty for a server given by the environment or running in a
	 * container
	 */
	Optional<RedisServerProcess> process();

	/**
	 * Return the address as a URL.
	 * @return e.g. {@code redis://127.0.0.1:26001}
	 */
	default String url() {
		return "redis://" + host() + ":" + port();
	}

	/**
	 * Release the server: stop what this JVM started; a server given by the environment
	 * is left alone, and a {@linkplain TestRedisServer#shared shared} one stays up until
	 * the JVM exits.
	 */
	@Override
	void close();

}
