package io.echomq.test.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the last lines of a log file for error messages.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class LogTail {

	private LogTail() {
	}

	static String of(Path file, int lines) {
		if (!Files.isRegularFile(file)) {
			return "";
		}
		try {
			List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
			return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException | RuntimeException ex) {
			return "<cannot read " + file + ": " + ex + ">";
		}
	}

	static boolean contains(Path file, String text) {
		return of(file, Integer.MAX_VALUE).contains(text);
	}

}
