package io.echomq.dashboard;

import io.echomq.core.EchoMqNode;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.test.TestServer;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A second node for the dashboard's tests: an application context of its own, without a
 * web server, on the same server and key prefix as the test's own application, under
 * another application name.
 *
 * @author EchoMQ
 */
final class OtherNode implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private OtherNode(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static OtherNode start(String application, String keyPrefix, String... properties) {
		TestServer server = DashboardTestApplication.server();
		return new OtherNode(new SpringApplicationBuilder(DashboardTestApplication.class).web(WebApplicationType.NONE)
			.properties("spring.application.name=" + application, "spring.data.redis.host=" + server.host(),
					"spring.data.redis.port=" + server.port(), "echomq.key-prefix=" + keyPrefix,
					"echomq.listener.idle-wait=500ms", "echomq.shutdown.timeout=1s",
					"echomq.maintenance.promote-interval=50ms", "echomq.maintenance.reap-interval=200ms")
			.properties(properties)
			.run());
	}

	EchoJobListenerRegistry listeners() {
		return this.context.getBean(EchoJobListenerRegistry.class);
	}

	EchoMqNode node() {
		return this.context.getBean(EchoMqNode.class);
	}

	boolean isRunning() {
		return this.context.isActive();
	}

	@Override
	public void close() {
		this.context.close();
	}

}
