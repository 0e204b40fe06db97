package io.echomq.test.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link ServerBinary}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
class ServerBinaryTests {

	@TempDir
	Path directory;

	@Test
	void embeddedExtractsAnExecutableThatReportsRedis62() {
		Optional<ServerBinary> embedded = ServerBinary.embedded();
		assertThat(embedded).hasValueSatisfying((binary) -> {
			assertThat(binary.flavor()).isEqualTo(ServerFlavor.REDIS);
			assertThat(binary.version()).startsWith("6.2.");
			assertThat(binary.executable()).isExecutable();
		});
	}

	@Test
	void embeddedDescriptionNamesOnlyTheVersionTheBinaryReports() {
		ServerBinary binary = TestBinaries.embedded();
		assertThat(Pattern.compile("\\d+\\.\\d+\\.\\d+").matcher(binary.describe()).results().map(MatchResult::group))
			.as(binary.describe())
			.containsOnly(binary.version());
	}

	@Test
	void embeddedIsExtractedOncePerJvm() {
		assertThat(ServerBinary.embedded()).isEqualTo(ServerBinary.embedded());
	}

	@Test
	void onPathFindsValkeyServer() {
		ServerBinary valkey = TestBinaries.onPath(ServerFlavor.VALKEY);
		assertThat(valkey.executable().getFileName()).hasToString("valkey-server");
		assertThat(valkey.version()).matches("\\d+\\.\\d+\\.\\d+.*");
	}

	@Test
	void onPathScansPathDirectoriesInOrder() throws IOException {
		Path first = Files.createDirectory(this.directory.resolve("first"));
		Path second = Files.createDirectory(this.directory.resolve("second"));
		fakeServer(second, "valkey-server", "Valkey server v=9.9.2 sha=00000000:0");
		fakeServer(first, "valkey-server", "Valkey server v=9.9.1 sha=00000000:0");
		Optional<ServerBinary> found = ServerBinary.onPath(ServerFlavor.VALKEY,
				Map.of("PATH", this.directory.resolve("missing") + ":" + first + ":" + second)::get);
		assertThat(found).hasValue(new ServerBinary(first.resolve("valkey-server"), ServerFlavor.VALKEY, "9.9.1"));
	}

	@Test
	void onPathSkipsABinaryThatReportsAnotherFlavor() throws IOException {
		fakeServer(this.directory, "redis-server", "Valkey server v=8.0.1 sha=00000000:0");
		assertThat(ServerBinary.onPath(ServerFlavor.REDIS, Map.of("PATH", this.directory.toString())::get)).isEmpty();
	}

	@Test
	void onPathIsEmptyWithoutTheBinary() {
		assertThat(ServerBinary.onPath(ServerFlavor.VALKEY, Map.of("PATH", this.directory.toString())::get)).isEmpty();
		assertThat(ServerBinary.onPath(ServerFlavor.VALKEY, Map.<String, String>of()::get)).isEmpty();
	}

	@Test
	void onPathHonoursTheExplicitVariable() {
		ServerBinary embedded = TestBinaries.embedded();
		Map<String, String> env = Map.of("ECHOMQ_REDIS_SERVER", embedded.executable().toString(), "PATH", "");
		assertThat(ServerBinary.onPath(ServerFlavor.REDIS, env::get)).hasValue(embedded);
	}

	@Test
	void explicitVariableNamingAMissingFileFails() {
		Map<String, String> env = Map.of("ECHOMQ_VALKEY_SERVER", "/nonexistent/valkey-server");
		assertThatIllegalStateException().isThrownBy(() -> ServerBinary.onPath(ServerFlavor.VALKEY, env::get))
			.withMessageContaining("ECHOMQ_VALKEY_SERVER=/nonexistent/valkey-server");
	}

	@Test
	void locatePrefersValkeyThenRedisThenEmbedded() throws IOException {
		Path both = Files.createDirectory(this.directory.resolve("both"));
		fakeServer(both, "redis-server", "Redis server v=7.0.15 sha=00000000:0");
		fakeServer(both, "valkey-server", "Valkey server v=8.0.1 sha=00000000:0");
		Path redisOnly = Files.createDirectory(this.directory.resolve("redis"));
		fakeServer(redisOnly, "redis-server", "Redis server v=7.0.15 sha=00000000:0");
		assertThat(ServerBinary.locate(Map.of("PATH", both.toString())::get).flavor()).isEqualTo(ServerFlavor.VALKEY);
		assertThat(ServerBinary.locate(Map.of("PATH", redisOnly.toString())::get).version()).isEqualTo("7.0.15");
		assertThat(ServerBinary.locate(Map.of("PATH", this.directory.resolve("none").toString())::get))
			.isEqualTo(TestBinaries.embedded());
	}

	@Test
	void embeddedResourceIsChosenByPlatform() {
		assertThat(EmbeddedRedisBinary.resourceName("Linux", "amd64")).hasValue("redis-server-6.2.6-v5-linux-amd64");
		assertThat(EmbeddedRedisBinary.resourceName("Linux", "aarch64")).hasValue("redis-server-6.2.7-linux-arm64");
		assertThat(EmbeddedRedisBinary.resourceName("Mac OS X", "x86_64"))
			.hasValue("redis-server-6.2.6-v5-darwin-amd64");
		assertThat(EmbeddedRedisBinary.resourceName("Mac OS X", "aarch64"))
			.hasValue("redis-server-6.2.6-v5-darwin-arm64");
		assertThat(EmbeddedRedisBinary.resourceName("Windows 11", "amd64")).isEmpty();
	}

	@Test
	void versionOutputIsParsed() {
		assertThat(VersionProbe.parse("Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64"))
			.hasValue(new VersionProbe.Result(ServerFlavor.VALKEY, "8.0.1"));
		assertThat(VersionProbe.parse("Redis server v=6.2.11 sha=00000000:0 malloc=jemalloc-5.1.0 bits=64"))
			.hasValue(new VersionProbe.Result(ServerFlavor.REDIS, "6.2.11"));
		assertThat(VersionProbe.parse("command not found")).isEmpty();
	}

	private static void fakeServer(Path directory, String name, String versionLine) throws IOException {
		Path script = directory.resolve(name);
		Files.writeString(script, "#!/bin/sh\necho '" + versionLine + "'\n");
		assertThat(script.toFile().setExecutable(true)).isTrue();
	}

}
