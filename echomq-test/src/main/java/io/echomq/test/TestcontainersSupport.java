package io.echomq.test;

import java.time.Duration;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Starts a Valkey container with Testcontainers. This is the only class that refers to
 * Testcontainers, so that without its jar only calls to this class fail, with a
 * {@link LinkageError} the caller catches.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class TestcontainersSupport {

	static final String IMAGE = "valkey/valkey:8";

	private static final int PORT = 6379;

	private TestcontainersSupport() {
	}

	static boolean isDockerAvailable() {
		return DockerClientFactory.instance().isDockerAvailable();
	}

	static TestServer startValkey() {
		GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE)).withExposedPorts(PORT);
		container.start();
		try {
			String host = container.getHost();
			int port = container.getMappedPort(PORT);
			ServerIdentity identity = ServerIdentity.probe(host, port, Duration.ofSeconds(10));
			return ResolvedTestServer.external(host, port, identity, ServerSource.TESTCONTAINERS, container::stop);
		}
		catch (RuntimeException ex) {
			container.stop();
			throw ex;
		}
	}

}
