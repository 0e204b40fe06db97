package io.echomq.test.server;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The persistence check the server tests share: a write survives the server being killed
 * and restarted on its directory.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class Durability {

	private Durability() {
	}

	/**
	 * Write a key, kill the server with {@code SIGKILL}, restart it and assert the key is
	 * still there.
	 * @param process a server that persists every write
	 * @param key the key to write
	 * @throws IOException if the server cannot be reached
	 */
	public static void assertWriteSurvivesKillAndRestart(RedisServerProcess process, String key) throws IOException {
		try (RespClient client = process.openClient()) {
			assertThat(client.command("SET", key, "kept")).isEqualTo("OK");
		}
		process.kill();
		process.restart();
		try (RespClient client = process.openClient()) {
			assertThat(client.command("GET", key)).isEqualTo("kept");
		}
	}

}
