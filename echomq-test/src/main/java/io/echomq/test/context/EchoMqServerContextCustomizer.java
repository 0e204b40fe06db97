package io.echomq.test.context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;

/**
 * Supplies a server for a test context and points the context at it: highest-precedence
 * {@code spring.data.redis.*} properties, a connection details bean when Spring Boot's
 * Redis support is on the class path, and the {@link TestServer} itself as a bean.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class EchoMqServerContextCustomizer implements ContextCustomizer {

	static final String PROPERTY_SOURCE_NAME = "echomqTestServer";

	static final String SERVER_BEAN_NAME = "echoMqTestServer";

	static final String CONNECTION_DETAILS_BEAN_NAME = "echoMqTestServerConnectionDetails";

	private static final String CONNECTION_DETAILS_CLASS = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

	private final @Nullable ServerFlavor flavor;

	private final boolean shared;

	EchoMqServerContextCustomizer(@Nullable ServerFlavor flavor, boolean shared) {
		this.flavor = flavor;
		this.shared = shared;
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		Assert.state(context instanceof BeanDefinitionRegistry,
				() -> "@AutoConfigureEchoMqServer needs a context that is a BeanDefinitionRegistry, not "
						+ context.getClass().getName());
		TestServer server = supplyServer();
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.data.redis.host", server.host());
		properties.put("spring.data.redis.port", server.port());
		properties.put("spring.data.redis.url", server.url());
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, properties));
		BeanDefinitionRegistry registry = (BeanDefinitionRegistry) context;
		// AutoCloseable: the context closes it (a no-op for a shared server)
		registry.registerBeanDefinition(SERVER_BEAN_NAME, new RootBeanDefinition(TestServer.class, () -> server));
		if (ClassUtils.isPresent(CONNECTION_DETAILS_CLASS, context.getClassLoader())) {
			TestServerConnectionDetails.register(registry, server);
		}
	}

	private TestServer supplyServer() {
		ServerFlavor flavor = this.flavor;
		if (this.shared) {
			return (flavor != null) ? TestRedisServer.shared(flavor) : TestRedisServer.shared();
		}
		return (flavor != null) ? TestRedisServer.start(flavor) : TestRedisServer.start();
	}

	@Override
	public boolean equals(@Nullable Object other) {
		if (this == other) {
			return true;
		}
		if (other == null || getClass() != other.getClass()) {
			return false;
		}
		EchoMqServerContextCustomizer that = (EchoMqServerContextCustomizer) other;
		return this.flavor == that.flavor && this.shared == that.shared;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.flavor, this.shared);
	}

}
