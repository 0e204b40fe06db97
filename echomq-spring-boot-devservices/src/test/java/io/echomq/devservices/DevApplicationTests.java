package io.echomq.devservices;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.echomq.test.server.RespClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.awaitility.Awaitility.await;

/**
 * An application with the dev services on its class path, run in a JVM of its own as a
 * developer runs it: with nothing answering where it looks for Redis it starts a server
 * and says so, and a {@code SIGTERM} stops that server along with the JVM, once the
 * application context closed.
 *
 * @author EchoMQ
 */
class DevApplicationTests {

	private static final Pattern REDIS_URL = Pattern.compile("REDIS_URL=redis://127\\.0\\.0\\.1:(\\d+)");

	@Test
	void applicationStartsADevServerThatStopsWithItsJvm() throws Exception {
		int configuredPort = DevServerEnvironmentPostProcessorTests.unusedPort();
		Path log = Files.createTempFile("echomq-dev-application-", ".log");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), DevApplication.class.getName(),
				"--spring.data.redis.port=" + configuredPort, "--spring.main.keep-alive=true");
		// standard input stays a pipe: the child ends when this JVM goes away
		Process child = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
			.start();
		try {
			int port = await("dev server address in the log").atMost(Duration.ofSeconds(60))
				.until(() -> port(log, child), (found) -> found != 0);
			String output = Files.readString(log);
			assertThat(output).contains("No Redis answered at localhost:" + configuredPort)
				.contains("EchoMQ dev services started")
				.contains("127.0.0.1:" + port);
			assertThat(ping(port)).isEqualTo("PONG");

			long stopping = System.nanoTime();
			// SIGTERM, leaving the child's standard input open (Process.destroy() closes
			// it)
			child.toHandle().destroy();
			assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM ended").isTrue();
			assertThat(child.exitValue()).as("ended by SIGTERM; log:%n%s", Files.readString(log)).isEqualTo(143);
			assertThat(Duration.ofNanos(System.nanoTime() - stopping))
				.as("stopped by the application's shutdown handler, not after the reaper's grace")
				.isLessThan(DevServer.EXIT_GRACE);
			assertThatIOException().as("nothing answers at %d", port).isThrownBy(() -> ping(port));
			assertThat(Files.readString(log)).as("server still up while the context closed")
				.contains("PING_ON_CLOSE=PONG")
				.doesNotContain("Exception");
		}
		finally {
			child.destroyForcibly();
			Files.deleteIfExists(log);
		}
	}

	private static int port(Path log, Process child) throws IOException {
		Matcher matcher = REDIS_URL.matcher(Files.readString(log));
		if (matcher.find()) {
			return Integer.parseInt(matcher.group(1));
		}
		assertThat(child.isAlive()).as("child JVM alive; its log:%n%s", Files.readString(log)).isTrue();
		return 0;
	}

	private static Object ping(int port) throws IOException {
		try (RespClient client = RespClient.connect("127.0.0.1", port, Duration.ofSeconds(1))) {
			return client.command("PING");
		}
	}

}
