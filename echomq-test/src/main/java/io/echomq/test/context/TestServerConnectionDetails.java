package io.echomq.test.context;

import io.echomq.test.TestServer;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * Connection details for a {@link TestServer}: a standalone server without credentials or
 * TLS. Referred to only when Spring Boot's Redis support is on the class path.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class TestServerConnectionDetails implements DataRedisConnectionDetails {

	private final TestServer server;

	private TestServerConnectionDetails(TestServer server) {
		this.server = server;
	}

	static void register(BeanDefinitionRegistry registry, TestServer server) {
		TestServerConnectionDetails details = new TestServerConnectionDetails(server);
		registry.registerBeanDefinition(EchoMqServerContextCustomizer.CONNECTION_DETAILS_BEAN_NAME,
				new RootBeanDefinition(DataRedisConnectionDetails.class, () -> details));
	}

	@Override
	public Standalone getStandalone() {
		return Standalone.of(this.server.host(), this.server.port());
	}

	@Override
	public String toString() {
		return "DataRedisConnectionDetails for " + this.server;
	}

}
