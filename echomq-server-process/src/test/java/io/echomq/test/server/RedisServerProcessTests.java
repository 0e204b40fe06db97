package io.echomq.test.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RedisServerProcess}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class RedisServerProcessTests {

	private static ServerBinary binary;

	@BeforeAll
	static void locateBinary() {
		binary = ServerBinary.locate();
	}

	@Test
	void startsOnAFreePortAndAnswersPing() throws IOException {
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			assertThat(server.port()).isPositive().isNotEqualTo(6379);
			assertThat(server.host()).isEqualTo("127.0.0.1");
			assertThat(server.flavor()).isEqualTo(binary.flavor());
			assertThat(server.version()).isEqualTo(binary.version());
			assertThat(server.isAlive()).isTrue();
			assertThat(ping(server)).isEqualTo("PONG");
		}
	}

	@Test
	void reaperKillsAServerWithoutExitGraceAtOnce() {
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			server.reap();
			assertThat(server.isAlive()).isFalse();
		}
	}

	@Test
	void reaperLeavesAServerToItsOwnerWithinTheExitGrace() throws Exception {
		RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults());
		try {
			server.setExitGrace(Duration.ofMinutes(1));
			Thread reaper = new Thread(server::reap, "test-reaper");
			reaper.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> reaper.getState() == Thread.State.TIMED_WAITING);
			assertThat(server.isAlive()).isTrue();
			assertThat(ping(server)).isEqualTo("PONG");
			server.stop();
			server.close();
			reaper.join(Duration.ofSeconds(10).toMillis());
			assertThat(reaper.isAlive()).as("reaper returned once the owner closed the server").isFalse();
		}
		finally {
			server.close();
		}
	}

	@Test
	void negativeExitGraceIsRejected() {
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			assertThatIllegalArgumentException().isThrownBy(() -> server.setExitGrace(Duration.ofSeconds(-1)))
				.withMessageContaining("PT-1S");
		}
	}

	@Test
	void killMakesItUnreachableAndRestartBringsItBackOnTheSamePort() throws IOException {
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			int port = server.port();
			long pid = server.pid();
			server.kill();
			assertThat(server.isAlive()).isFalse();
			assertThatExceptionOfType(IOException.class)
				.isThrownBy(() -> RespClient.connect(server.host(), port, Duration.ofMillis(500)).close());
			server.restart();
			assertThat(server.isAlive()).isTrue();
			assertThat(server.port()).isEqualTo(port);
			assertThat(server.pid()).isNotEqualTo(pid);
			assertThat(ping(server)).isEqualTo("PONG");
		}
	}

	@Test
	void writeSurvivesKillAndRestartWithAppendFsyncAlways() throws IOException {
		ServerOptions options = ServerOptions.builder().appendOnly(true).appendFsync("always").build();
		try (RedisServerProcess server = RedisServerProcess.start(binary, options)) {
			Durability.assertWriteSurvivesKillAndRestart(server, "echomq:durable");
		}
	}

	@Test
	void writeIsLostOnRestartWithoutPersistence() throws IOException {
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			try (RespClient client = server.openClient()) {
				client.command("SET", "echomq:volatile", "yes");
			}
			server.stop();
			assertThat(server.isAlive()).isFalse();
			server.restart();
			try (RespClient client = server.openClient()) {
				assertThat(client.command("GET", "echomq:volatile")).isNull();
			}
		}
	}

	@Test
	void twoServersGetDifferentPorts() {
		try (RedisServerProcess first = RedisServerProcess.start(binary, ServerOptions.defaults());
				RedisServerProcess second = RedisServerProcess.start(binary, ServerOptions.defaults())) {
			assertThat(first.port()).isNotEqualTo(second.port());
			assertThat(first.directory()).isNotEqualTo(second.directory());
		}
	}

	@Test
	void appliesMemoryOptionsAndExtraArgs() throws IOException {
		ServerOptions options = ServerOptions.builder()
			.maxMemory("64mb")
			.maxMemoryPolicy("allkeys-lru")
			.extraArgs("--databases", "4")
			.build();
		try (RedisServerProcess server = RedisServerProcess.start(binary, options);
				RespClient client = server.openClient()) {
			assertThat(client.command("CONFIG", "GET", "maxmemory")).asList().containsExactly("maxmemory", "67108864");
			assertThat(client.command("CONFIG", "GET", "maxmemory-policy")).asList()
				.containsExactly("maxmemory-policy", "allkeys-lru");
			assertThat(client.command("CONFIG", "GET", "databases")).asList().containsExactly("databases", "4");
		}
	}

	@Test
	void startsOnARequestedPort() {
		int port = FreePorts.pick(false);
		try (RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults().withPort(port))) {
			assertThat(server.port()).isEqualTo(port);
		}
	}

	@Test
	void closeKillsTheProcessAndDeletesItsDirectory() {
		RedisServerProcess server = RedisServerProcess.start(binary, ServerOptions.defaults());
		Path directory = server.directory();
		assertThat(directory).isDirectory();
		server.close();
		assertThat(server.isAlive()).isFalse();
		assertThat(Files.exists(directory)).isFalse();
		assertThatIllegalStateException().isThrownBy(server::restart).withMessageContaining("closed");
	}

	@Test
	void stopAndRestartWorkWithTheEmbeddedRedis62() throws IOException {
		try (RedisServerProcess server = RedisServerProcess.start(TestBinaries.embedded(), ServerOptions.defaults())) {
			assertThat(server.version()).startsWith("6.2.");
			server.stop();
			assertThat(server.isAlive()).isFalse();
			server.restart();
			assertThat(ping(server)).isEqualTo("PONG");
		}
	}

	@Test
	void missingBinaryFailsWithAMessageNamingThePath() {
		Path missing = Path.of("/nonexistent/echomq/valkey-server");
		ServerBinary bogus = new ServerBinary(missing, ServerFlavor.VALKEY, "0.0.0");
		assertThatIllegalStateException().isThrownBy(() -> RedisServerProcess.start(bogus, ServerOptions.defaults()))
			.withMessageContaining(missing.toString());
	}

	@Test
	void serverThatExitsFailsWithItsLogTail() {
		ServerOptions options = ServerOptions.builder().extraArgs("--echomq-no-such-directive", "yes").build();
		assertThatIllegalStateException().isThrownBy(() -> RedisServerProcess.start(binary, options))
			.withMessageContaining("exited with code")
			.withMessageContaining("echomq-no-such-directive");
	}

	private static Object ping(RedisServerProcess server) throws IOException {
		try (RespClient client = server.openClient()) {
			return client.command("PING");
		}
	}

}
