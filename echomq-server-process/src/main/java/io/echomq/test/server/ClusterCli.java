package io.echomq.test.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Joins nodes into a cluster with {@code valkey-cli --cluster create} (or
 * {@code redis-cli}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ClusterCli {

	/** Environment variable that may name the CLI explicitly. */
	static final String VARIABLE = "ECHOMQ_CLUSTER_CLI";

	/** The CLI refuses to create a cluster with fewer masters. */
	static final int MIN_MASTERS = 3;

	private ClusterCli() {
	}

	/**
	 * Find a CLI: the file named by {@value #VARIABLE}, else {@code valkey-cli} or
	 * {@code redis-cli} on {@code PATH}.
	 * @param env the environment
	 * @return the CLI, or empty if there is none
	 */
	static Optional<Path> find(Function<String, @Nullable String> env) {
		String explicit = env.apply(VARIABLE);
		if (explicit != null && !explicit.isBlank()) {
			Path path = Path.of(explicit.strip());
			if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
				throw new IllegalStateException(VARIABLE + "=" + explicit + " does not name an executable file");
			}
			return Optional.of(path);
		}
		for (ServerFlavor flavor : ServerFlavor.values()) {
			List<Path> found = ExecutableSearch.onPath(flavor.cliExecutable(), env);
			if (!found.isEmpty()) {
				return Optional.of(found.get(0));
			}
		}
		return Optional.empty();
	}

	/**
	 * Run {@code --cluster create}; the first {@code masters} nodes become masters.
	 * @param cli the CLI executable
	 * @param nodes the nodes, masters first
	 * @param replicasPerMaster replicas for each master
	 * @param timeout how long the CLI may take
	 */
	static void create(Path cli, List<RedisServerProcess> nodes, int replicasPerMaster, Duration timeout) {
		List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
		nodes.forEach((node) -> command.add(node.address()));
		command.addAll(List.of("--cluster-replicas", String.valueOf(replicasPerMaster), "--cluster-yes"));
		Path output = null;
		try {
			output = Files.createTempFile("echomq-cluster-create-", ".log");
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			process.getOutputStream().close();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw failure(command, "did not finish within " + timeout.toSeconds() + " s", output);
			}
			if (process.exitValue() != 0) {
				throw failure(command, "exited with code " + process.exitValue(), output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot run " + String.join(" ", command), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + cli, ex);
		}
		finally {
			if (output != null) {
				deleteQuietly(output);
			}
		}
	}

	private static IllegalStateException failure(List<String> command, String reason, Path output) throws IOException {
		return new IllegalStateException(String.join(" ", command) + " " + reason + ":" + System.lineSeparator()
				+ Files.readString(output, StandardCharsets.UTF_8));
	}

	private static void deleteQuietly(Path file) {
		try {
			Files.deleteIfExists(file);
		}
		catch (IOException ex) {
			// Best effort
		}
	}

}
