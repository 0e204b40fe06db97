package io.echomq.test.server;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RespClient}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class RespClientTests {

	private static RedisServerProcess server;

	@BeforeAll
	static void startServer() {
		server = RedisServerProcess.start(ServerBinary.locate(), ServerOptions.defaults());
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@Test
	void mapsRepliesToJavaTypes() throws IOException {
		try (RespClient client = server.openClient()) {
			assertThat(client.command("SET", "echomq:text", "h\u00e9llo\r\nworld")).isEqualTo("OK");
			assertThat(client.command("GET", "echomq:text")).isEqualTo("h\u00e9llo\r\nworld");
			assertThat(client.command("GET", "echomq:missing")).isNull();
			assertThat(client.command("INCR", "echomq:counter")).isEqualTo(1L);
			client.command("RPUSH", "echomq:list", "a", "", "c");
			assertThat(client.command("LRANGE", "echomq:list", "0", "-1")).asList().containsExactly("a", "", "c");
			assertThat(client.command("MGET", "echomq:text", "echomq:missing")).asList()
				.containsExactly("h\u00e9llo\r\nworld", null);
		}
	}

	@Test
	void throwsErrorReplies() throws IOException {
		try (RespClient client = server.openClient()) {
			assertThatExceptionOfType(RespErrorException.class).isThrownBy(() -> client.command("NOSUCHCOMMAND"))
				.satisfies((ex) -> assertThat(ex.code()).isEqualTo("ERR"));
			assertThat(client.command("PING")).isEqualTo("PONG");
		}
	}

}
