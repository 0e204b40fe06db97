package io.echomq.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's jar started the way an AOT-processed application runs:
 * {@code java -Dspring.aot.enabled=true -jar}, with the bean definitions that
 * {@code spring-boot:process-aot} generated at build time (without them Spring Boot
 * refuses to start in AOT mode). A sign-up's welcome-email job must run to completion.
 * The hints the processing wrote for a native image must hold EchoMQ's. Runs in the
 * {@code integration-test} phase, after the repackage.
 *
 * @author EchoMQ
 */
class AotJarIT {

	private static final String METADATA = "META-INF/native-image/io.echomq/sample-app/reachability-metadata.json";

	@Test
	void aotProcessedJarRunsAJob() throws Exception {
		String jar = System.getProperty("echomq.packaged-jar");
		assertThat(jar).as("system property echomq.packaged-jar (set by the sample's POM)").isNotBlank();
		// beside the jar, in target/, kept to read when the test fails
		Path log = Path.of(jar).resolveSibling("aot-sample-app.log");
		int port = freePort();
		try (TestServer redis = TestRedisServer.startOwned()) {
			Path java = Path.of(System.getProperty("java.home"), "bin", "java");
			Process app = new ProcessBuilder(
					List.of(java.toString(), "-Dspring.aot.enabled=true", "-jar", jar, "--server.port=" + port,
							"--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
							"--echomq.devservices.enabled=false", "--sample.demo-signups=0"))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			try {
				HttpClient http = HttpClient.newHttpClient();
				HttpRequest signup = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/signups"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"ada@example.com\",\"name\":\"Ada\"}"))
					.build();
				HttpResponse<String> accepted = await().atMost(Duration.ofSeconds(90))
					.pollInterval(Duration.ofMillis(250))
					.ignoreExceptions()
					.failFast("the application exited; see " + log, () -> !app.isAlive())
					.until(() -> http.send(signup, HttpResponse.BodyHandlers.ofString()),
							(response) -> response.statusCode() == 202);
				assertThat(accepted.body()).contains("jobs");
				await().atMost(Duration.ofSeconds(30))
					.pollInterval(Duration.ofMillis(200))
					.untilAsserted(() -> assertThat(Files.readString(log, StandardCharsets.UTF_8))
						.containsPattern("welcome-email \\S+ done on attempt 1"));
			}
			finally {
				app.destroy();
				if (!app.waitFor(30, TimeUnit.SECONDS)) {
					app.destroyForcibly();
				}
			}
		}
	}

	@Test
	void processAotWroteEchoMqHintsIntoTheJar() throws IOException {
		String jar = System.getProperty("echomq.packaged-jar");
		assertThat(jar).as("system property echomq.packaged-jar (set by the sample's POM)").isNotBlank();
		String metadata;
		try (JarFile file = new JarFile(jar)) {
			JarEntry entry = file.getJarEntry(METADATA);
			assertThat(entry).as(METADATA + " (written by spring-boot:process-aot)").isNotNull();
			try (InputStream in = file.getInputStream(entry)) {
				// JSON that escapes its slashes
				metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\\/", "/");
			}
		}
		assertThat(metadata).contains("\"io/echomq/core/scripts/*.lua\"", "\"io/echomq/core/scripts/includes/*.lua\"",
				"\"io/echomq/dashboard/static/*\"", "\"io.echomq.sample.WelcomeEmail\"",
				"\"io.echomq.sample.CrmContact\"", "\"io.echomq.dashboard.Overview\"",
				"\"io.echomq.autoconfigure.EchoMqQueueProperties\"");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
