package io.echomq.sample;

import java.net.ServerSocket;
import java.util.Map;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EmbeddedRedisEnvironmentPostProcessor}.
 *
 * @author EchoMQ
 */
class EmbeddedRedisEnvironmentPostProcessorTests {

	private final EmbeddedRedisEnvironmentPostProcessor processor = new EmbeddedRedisEnvironmentPostProcessor(
			new DeferredLogs());

	@Test
	void unreachableServerShouldStartAnEmbeddedOne() throws Exception {
		int unusedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			unusedPort = socket.getLocalPort();
		}
		StandardEnvironment environment = environment(Map.of("spring.data.redis.port", unusedPort));
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		int port = environment.getProperty("spring.data.redis.port", Integer.class);
		assertThat(port).isNotEqualTo(unusedPort);
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://127.0.0.1:" + port);
		try (RespClient client = RespClient.connect("127.0.0.1", port, java.time.Duration.ofSeconds(2))) {
			assertThat(client.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void reachableServerShouldBeUsedAsConfigured() {
		TestServer server = TestRedisServer.shared(ServerFlavor.VALKEY);
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.host", server.host(), "spring.data.redis.port", server.port()));
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().contains("echomqEmbeddedRedis")).isFalse();
		assertThat(environment.getProperty("spring.data.redis.port", Integer.class)).isEqualTo(server.port());
	}

	@Test
	void disabledShouldDoNothing() {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.port", 1, "sample.embedded-redis.enabled", false));
		this.processor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getPropertySources().contains("echomqEmbeddedRedis")).isFalse();
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

}
