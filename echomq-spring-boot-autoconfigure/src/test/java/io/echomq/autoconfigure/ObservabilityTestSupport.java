package io.echomq.autoconfigure;

import java.util.UUID;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Shared set-up of the observability tests: the Valkey server shared by this JVM, a key
 * prefix of each test's own, and a context runner on Redis, Jackson and EchoMQ.
 *
 * @author EchoMQ
 */
final class ObservabilityTestSupport {

	private ObservabilityTestSupport() {
	}

	static TestServer server() {
		return TestRedisServer.shared(ServerFlavor.VALKEY);
	}

	static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
	}

	static ApplicationContextRunner runner(Class<?>... more) {
		TestServer server = server();
		Class<?>[] classes = new Class<?>[more.length + 3];
		classes[0] = DataRedisAutoConfiguration.class;
		classes[1] = JacksonAutoConfiguration.class;
		classes[2] = EchoMqAutoConfiguration.class;
		System.arraycopy(more, 0, classes, 3, more.length);
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(classes))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"echomq.key-prefix=" + unique("obs"), "echomq.shutdown.timeout=1s",
					"echomq.scheduler.promote-interval=50ms", "echomq.scheduler.reap-interval=100ms",
					"echomq.listener.backoff.initial=0s", "echomq.listener.idle-wait=500ms");
	}

}
