package io.echomq.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No main class of a published module is over 600 lines: a class that grows past it is
 * split by concern. The benchmark harness is not published and is left out.
 *
 * @author EchoMQ
 */
class ClassSizeTests {

	static final int MAX_LINES = 600;

	@Test
	void noMainClassIsOver600Lines() throws IOException {
		List<Path> sources = mainSources();
		assertThat(sources).hasSizeGreaterThan(100);
		assertThat(sources.stream().filter((source) -> lines(source) > MAX_LINES).map(ClassSizeTests::describe))
			.isEmpty();
	}

	static List<Path> mainSources() throws IOException {
		try (Stream<Path> files = Files.walk(Modules.ROOT)) {
			return files.filter((file) -> file.toString().endsWith(".java"))
				.filter((
						file) -> Modules.ROOT.relativize(file).toString().matches("echomq-[a-z0-9-]+/src/main/java/.*"))
				.filter((file) -> !Modules.ROOT.relativize(file).startsWith("echomq-benchmarks"))
				.toList();
		}
	}

	private static long lines(Path source) {
		try (Stream<String> lines = Files.lines(source)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String describe(Path source) {
		return Modules.ROOT.relativize(source) + " (" + lines(source) + " lines)";
	}

}
