package io.echomq.test;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import io.echomq.test.server.Durability;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import io.echomq.test.server.TestBinaries;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TestRedisServer}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class TestRedisServerTests {

	private static final String NO_BINARIES = "/nonexistent/echomq/bin";

	@Test
	void addressFromTheEnvironmentIsUsedAsItIs() throws IOException {
		try (TestServer owned = TestRedisServer.startOwned()) {
			Map<String, String> env = Map.of(TestRedisServer.URL_VARIABLE, owned.url());
			try (TestServer server = TestRedisServer.start(env::get)) {
				assertThat(server.source()).isEqualTo(ServerSource.ENVIRONMENT);
				assertThat(server.host()).isEqualTo(owned.host());
				assertThat(server.port()).isEqualTo(owned.port());
				assertThat(server.flavor()).isEqualTo(owned.flavor());
				assertThat(server.version()).isEqualTo(owned.version());
				assertThat(server.process()).isEmpty();
			}
			assertThat(owned.process()).hasValueSatisfying((process) -> assertThat(process.isAlive()).isTrue());
			assertThat(ping(owned)).isEqualTo("PONG");
		}
	}

	@Test
	void malformedAddressInTheEnvironmentFails() {
		Map<String, String> env = Map.of(TestRedisServer.URL_VARIABLE, "http://localhost:6380");
		assertThatIllegalStateException().isThrownBy(() -> TestRedisServer.start(env::get))
			.withMessageContaining(TestRedisServer.URL_VARIABLE);
	}

	@Test
	void startFromTheRealEnvironmentAnswers() throws IOException {
		try (TestServer server = TestRedisServer.start()) {
			assertThat(server.source()).isIn(ServerSource.values());
			assertThat(ping(server)).isEqualTo("PONG");
		}
	}

	@Test
	void binaryOnPathIsUsedWithoutAddressOrDocker() {
		TestBinaries.onPath(ServerFlavor.VALKEY);
		Map<String, String> env = Map.of("PATH", System.getenv("PATH"), TestRedisServer.TESTCONTAINERS_VARIABLE,
				"false");
		try (TestServer server = TestRedisServer.start(env::get)) {
			assertThat(server.source()).isEqualTo(ServerSource.PATH);
			assertThat(server.flavor()).isEqualTo(ServerFlavor.VALKEY);
			assertThat(server.process()).isPresent();
		}
	}

	@Test
	void embeddedBinaryIsTheLastResort() {
		Map<String, String> env = Map.of("PATH", NO_BINARIES, TestRedisServer.TESTCONTAINERS_VARIABLE, "false");
		try (TestServer server = TestRedisServer.start(env::get)) {
			assertThat(server.source()).isEqualTo(ServerSource.EMBEDDED);
			assertThat(server.flavor()).isEqualTo(ServerFlavor.REDIS);
			assertThat(server.version()).startsWith("6.2.");
		}
	}

	@Test
	void missingFlavorFailsOnCi() {
		Map<String, String> env = Map.of("CI", "true", "PATH", NO_BINARIES);
		assertThatIllegalStateException().isThrownBy(() -> TestRedisServer.start(ServerFlavor.VALKEY, env::get))
			.withMessageContaining("CI requires valkey-server on PATH");
		assertThatIllegalStateException()
			.isThrownBy(() -> TestRedisServer.startOwned(ServerFlavor.REDIS, ServerOptions.defaults(), env::get))
			.withMessageContaining("CI requires redis-server on PATH");
		assertThatIllegalStateException().isThrownBy(() -> TestRedisServer.cluster(3, 0, env::get))
			.withMessageContaining("CI requires valkey-server on PATH");
		assertThatIllegalStateException().isThrownBy(() -> TestRedisServer.cluster(ServerFlavor.REDIS, 3, 0, env::get))
			.withMessageContaining("CI requires redis-server on PATH");
		assertThatIllegalStateException()
			.isThrownBy(() -> TestRedisServer.sentinel(ServerFlavor.VALKEY, 1, 3, env::get))
			.withMessageContaining("CI requires valkey-server on PATH");
	}

	@Test
	void missingFlavorIsSkippedWithTheReasonOutsideCi() {
		Map<String, String> env = Map.of("PATH", NO_BINARIES, TestRedisServer.TESTCONTAINERS_VARIABLE, "false");
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> TestRedisServer.start(ServerFlavor.VALKEY, env::get))
			.withMessageContaining("Valkey is unavailable: no valkey-server on PATH");
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> TestRedisServer.startOwned(ServerFlavor.VALKEY, ServerOptions.defaults(), env::get))
			.withMessageContaining("required on CI");
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> TestRedisServer.cluster(ServerFlavor.VALKEY, 3, 0, env::get));
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> TestRedisServer.sentinel(ServerFlavor.VALKEY, 1, 3, env::get))
			.withMessageContaining("Valkey is unavailable: no valkey-server on PATH");
		assertThat(TestRedisServer.unavailability(ServerFlavor.VALKEY, env::get))
			.hasValueSatisfying((reason) -> assertThat(reason).contains("valkey-server"));
		assertThat(TestRedisServer.unavailability(ServerFlavor.VALKEY, Map.of("CI", "true", "PATH", NO_BINARIES)::get))
			.isEmpty();
	}

	@Test
	void missingRedisIsServedByTheEmbeddedRedisOutsideCi() {
		Map<String, String> env = Map.of("PATH", NO_BINARIES, TestRedisServer.TESTCONTAINERS_VARIABLE, "false");
		assertThat(TestRedisServer.unavailability(ServerFlavor.REDIS, env::get)).isEmpty();
		try (TestServer server = TestRedisServer.start(ServerFlavor.REDIS, env::get)) {
			assertThat(server.source()).isEqualTo(ServerSource.EMBEDDED);
			assertThat(server.flavor()).isEqualTo(ServerFlavor.REDIS);
			assertThat(server.version()).startsWith("6.2.");
		}
	}

	@Test
	void flavorIsServedFromItsBinary() {
		TestBinaries.onPath(ServerFlavor.REDIS);
		try (TestServer server = TestRedisServer.startOwned(ServerFlavor.REDIS)) {
			assertThat(server.source()).isEqualTo(ServerSource.PATH);
			assertThat(server.flavor()).isEqualTo(ServerFlavor.REDIS);
			assertThat(server.process()).isPresent();
		}
	}

	@Test
	void ownedServerCanBeKilledAndRestartedWithItsData() throws IOException {
		ServerOptions options = ServerOptions.builder().appendOnly(true).appendFsync("always").build();
		try (TestServer server = TestRedisServer.startOwned(options)) {
			Durability.assertWriteSurvivesKillAndRestart(server.process().orElseThrow(), "echomq:owned");
		}
	}

	@Test
	void sharedServerIsReusedAndOutlivesClose() throws IOException {
		TestServer first = TestRedisServer.shared(ServerFlavor.VALKEY);
		first.close();
		TestServer second = TestRedisServer.shared(ServerFlavor.VALKEY);
		assertThat(second).isSameAs(first);
		assertThat(ping(second)).isEqualTo("PONG");
	}

	@Test
	void sharedClusterIsReused() {
		LocalCluster first = TestRedisServer.sharedCluster();
		assertThat(first.nodes()).hasSize(3);
		assertThat(first.isRunning()).isTrue();
		assertThat(TestRedisServer.sharedCluster()).isSameAs(first);
	}

	private static Object ping(TestServer server) throws IOException {
		try (RespClient client = RespClient.connect(server.host(), server.port(), Duration.ofSeconds(2))) {
			return client.command("PING");
		}
	}

}
