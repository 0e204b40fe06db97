package io.echomq.test.server;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link LocalSentinel}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class LocalSentinelTests {

	@Test
	void sentinelsPromoteTheReplicaWhenThePrimaryIsKilled() throws IOException {
		try (LocalSentinel sentinel = LocalSentinel.start(TestBinaries.onPath(ServerFlavor.VALKEY), 1, 3)) {
			assertThat(sentinel.sentinelNodes()).hasSize(3).allMatch((node) -> node.startsWith("127.0.0.1:"));
			RedisServerProcess primary = sentinel.primary();
			assertThat(primary).isSameAs(sentinel.servers().get(0));
			RedisServerProcess replica = sentinel.servers().get(1);
			assertThat(sentinel.replicas()).containsExactly(replica);
			try (RespClient client = sentinel.sentinels().get(0).openClient()) {
				assertThat(client.commandForString("INFO", "server")).contains("server_mode:sentinel");
			}
			try (RespClient client = primary.openClient()) {
				assertThat(client.command("SET", "echomq:sentinel", "kept")).isEqualTo("OK");
				assertThat(client.command("WAIT", "1", "5000")).isEqualTo(1L);
			}
			sentinel.kill(primary);
			RedisServerProcess promoted = sentinel.awaitFailover(primary, Duration.ofSeconds(30));
			assertThat(promoted).isSameAs(replica);
			try (RespClient client = promoted.openClient()) {
				assertThat(client.command("GET", "echomq:sentinel")).isEqualTo("kept");
			}
		}
	}

	@Test
	void switchoverMakesTheOldPrimaryAReplicaOfTheNewOne() {
		try (LocalSentinel sentinel = LocalSentinel.start(TestBinaries.onPath(ServerFlavor.VALKEY), 1, 3)) {
			RedisServerProcess primary = sentinel.primary();
			RedisServerProcess promoted = sentinel.switchover(Duration.ofSeconds(30));
			assertThat(promoted).isSameAs(sentinel.servers().get(1));
			await().atMost(Duration.ofSeconds(30)).until(() -> sentinel.replicas().contains(primary));
			assertThat(primary.isAlive()).isTrue();
		}
	}

	@Test
	void closeEndsEveryProcess() {
		LocalSentinel sentinel = LocalSentinel.start(TestBinaries.onPath(ServerFlavor.VALKEY), 1, 3);
		sentinel.close();
		assertThat(sentinel.servers()).noneMatch(RedisServerProcess::isAlive);
		assertThat(sentinel.sentinels()).noneMatch(RedisServerProcess::isAlive);
	}

	@Test
	void refusesADeploymentThatCannotFailOver() {
		ServerBinary binary = ServerBinary.locate();
		assertThatIllegalArgumentException().isThrownBy(() -> LocalSentinel.start(binary, 0, 3))
			.withMessageContaining("got 0");
		assertThatIllegalArgumentException().isThrownBy(() -> LocalSentinel.start(binary, 1, 2))
			.withMessageContaining("got 2");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ServerOptions.builder().sentinel(true).clusterEnabled(true).build());
	}

}
