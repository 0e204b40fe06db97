package io.echomq.devservices;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DevServerEnvironmentPostProcessor}.
 *
 * @author EchoMQ
 */
class DevServerEnvironmentPostProcessorTests {

	private static final RunContext DEVELOPMENT = new FixedRunContext(false, false);

	private static final RunContext PACKAGED = new FixedRunContext(false, true);

	@AfterEach
	void stopDevServer() {
		DevServer.stop();
	}

	@Test
	void unansweredLocalAddressStartsADevServer() throws IOException {
		int unused = unusedPort();
		StandardEnvironment environment = environment(Map.of("spring.data.redis.port", unused));
		process(DEVELOPMENT, environment);
		int port = devServerPort(environment);
		assertThat(port).isNotEqualTo(unused);
		assertThat(environment.getProperty("spring.data.redis.host")).isEqualTo("127.0.0.1");
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://127.0.0.1:" + port);
		assertThat(ping(port)).isEqualTo("PONG");
	}

	@Test
	void unansweredUrlStartsADevServerThatWinsOverTheUrl() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.url", "redis://user:secret@localhost:" + unusedPort()));
		process(DEVELOPMENT, environment);
		int port = devServerPort(environment);
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://127.0.0.1:" + port);
		assertThat(ping(port)).isEqualTo("PONG");
	}

	@Test
	void devServerWaitsForSpringBootsShutdownHookBeforeTheReaperKillsIt() throws IOException {
		StandardEnvironment environment = environment(Map.of("spring.data.redis.port", unusedPort()));
		process(DEVELOPMENT, environment);
		assertThat(DevServer.obtain(true).process().exitGrace()).isEqualTo(DevServer.EXIT_GRACE);
	}

	@Test
	void devServerWithoutSpringBootsShutdownHookIsKilledAtOnceOnExit() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.port", unusedPort(), "spring.main.register-shutdown-hook", "false"));
		process(DEVELOPMENT, environment);
		assertThat(DevServer.obtain(false).process().exitGrace()).isZero();
	}

	@Test
	void secondApplicationInTheJvmReusesTheServer() throws IOException {
		int unused = unusedPort();
		StandardEnvironment first = environment(Map.of("spring.data.redis.port", unused));
		process(DEVELOPMENT, first);
		StandardEnvironment second = environment(Map.of("spring.data.redis.port", unused));
		process(DEVELOPMENT, second);
		assertThat(devServerPort(second)).isEqualTo(devServerPort(first));
	}

	@Test
	void answeringServerIsUsedAsConfigured() {
		TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.host", server.host(), "spring.data.redis.port", server.port()));
		process(DEVELOPMENT, environment);
		assertNothingAdded(environment);
		assertThat(environment.getProperty("spring.data.redis.port", Integer.class)).isEqualTo(server.port());
	}

	@Test
	void disabledDoesNothing() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.port", unusedPort(), "echomq.devservices.enabled", "false"));
		process(DEVELOPMENT, environment);
		assertNothingAdded(environment);
	}

	@Test
	void testDoesNothingByDefault() throws IOException {
		StandardEnvironment environment = environment(Map.of("spring.data.redis.port", unusedPort()));
		process(RunContext.detect(), environment);
		assertNothingAdded(environment);
	}

	@Test
	void testStartsADevServerWhenAskedTo() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.port", unusedPort(), "echomq.devservices.skip.in-tests", "false"));
		process(RunContext.detect(), environment);
		assertThat(ping(devServerPort(environment))).isEqualTo("PONG");
	}

	@Test
	void packagedApplicationDoesNothingByDefault() throws IOException {
		StandardEnvironment environment = environment(Map.of("spring.data.redis.port", unusedPort()));
		process(PACKAGED, environment);
		assertNothingAdded(environment);
	}

	@Test
	void packagedApplicationStartsADevServerWhenEnabled() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.port", unusedPort(), "echomq.devservices.enabled", "true"));
		process(PACKAGED, environment);
		assertThat(ping(devServerPort(environment))).isEqualTo("PONG");
	}

	@Test
	void hostElsewhereIsLeftAlone() {
		StandardEnvironment environment = environment(Map.of("spring.data.redis.host", "redis.example.invalid"));
		process(DEVELOPMENT, environment);
		assertNothingAdded(environment);
	}

	@Test
	void clusterIsLeftAlone() throws IOException {
		StandardEnvironment environment = environment(
				Map.of("spring.data.redis.cluster.nodes", "127.0.0.1:" + unusedPort()));
		process(DEVELOPMENT, environment);
		assertNothingAdded(environment);
	}

	@Test
	void sentinelIsLeftAlone() {
		StandardEnvironment environment = environment(Map.of("spring.data.redis.sentinel.master", "mymaster"));
		process(DEVELOPMENT, environment);
		assertNothingAdded(environment);
	}

	private static void process(RunContext runContext, StandardEnvironment environment) {
		new DevServerEnvironmentPostProcessor(new DeferredLogs(), runContext).postProcessEnvironment(environment,
				new SpringApplication());
	}

	private static int devServerPort(StandardEnvironment environment) {
		assertThat(environment.getPropertySources().contains(DevServerEnvironmentPostProcessor.PROPERTY_SOURCE_NAME))
			.as("dev server property source")
			.isTrue();
		return environment.getProperty("spring.data.redis.port", Integer.class, 0);
	}

	private static void assertNothingAdded(StandardEnvironment environment) {
		assertThat(environment.getPropertySources().contains(DevServerEnvironmentPostProcessor.PROPERTY_SOURCE_NAME))
			.isFalse();
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", new HashMap<>(properties)));
		return environment;
	}

	private static Object ping(int port) throws IOException {
		try (RespClient client = RespClient.connect("127.0.0.1", port, Duration.ofSeconds(2))) {
			return client.command("PING");
		}
	}

	static int unusedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private record FixedRunContext(boolean inTest, boolean packaged) implements RunContext {

		@Override
		public boolean inTest(ClassLoader classLoader) {
			return this.inTest;
		}

		@Override
		public boolean packaged(ClassLoader classLoader) {
			return this.packaged;
		}

	}

}
