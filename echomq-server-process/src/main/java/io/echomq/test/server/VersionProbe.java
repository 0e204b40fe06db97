package io.echomq.test.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Runs {@code <binary> --version} and reads the flavor and version from its output, e.g.
 * {@code Valkey server v=8.0.1 sha=00000000:0 malloc=jemalloc-5.3.0 bits=64}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class VersionProbe {

	private static final Pattern VERSION = Pattern.compile("\\bv=([0-9][^\\s]*)");

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final int ATTEMPTS = 3;

	private VersionProbe() {
	}

	/**
	 * The result of probing a binary.
	 *
	 * @param flavor the flavor the binary reports, or {@code null} if it names neither
	 * @param version the version, e.g. {@code 8.0.1}
	 */
	record Result(@Nullable ServerFlavor flavor, String version) {
	}

	/**
	 * Probe a binary.
	 * @param executable the binary
	 * @return the result, or empty if the binary cannot be run or prints no version
	 */
	static Optional<Result> probe(Path executable) {
		String output = run(executable);
		return (output != null) ? parse(output) : Optional.empty();
	}

	static Optional<Result> parse(String output) {
		Matcher matcher = VERSION.matcher(output);
		if (!matcher.find()) {
			return Optional.empty();
		}
		String trimmed = output.stripLeading();
		ServerFlavor flavor = null;
		for (ServerFlavor candidate : ServerFlavor.values()) {
			if (trimmed.regionMatches(true, 0, candidate.displayName(), 0, candidate.displayName().length())) {
				flavor = candidate;
			}
		}
		return Optional.of(new Result(flavor, matcher.group(1)));
	}

	private static @Nullable String run(Path executable) {
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			try {
				return runOnce(executable);
			}
			catch (IOException ex) {
				// A freshly extracted binary can briefly be "Text file busy"; try again
				if (attempt == ATTEMPTS || !String.valueOf(ex.getMessage()).contains("busy")) {
					return null;
				}
			}
		}
		return null;
	}

	private static @Nullable String runOnce(Path executable) throws IOException {
		Path output = Files.createTempFile("echomq-version-", ".txt");
		try {
			Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.redirectInput(ProcessBuilder.Redirect.PIPE)
				.start();
			process.getOutputStream().close();
			if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				return null;
			}
			return Files.readString(output, StandardCharsets.UTF_8);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

}
