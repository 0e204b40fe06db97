package io.echomq.test.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Deletes temporary directory trees.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class Directories {

	private Directories() {
	}

	/**
	 * Delete a directory and everything in it, ignoring files that cannot be deleted.
	 * @param directory the directory
	 */
	static void deleteQuietly(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach(Directories::deleteFile);
		}
		catch (IOException | RuntimeException ex) {
			// Best effort: a temp dir left behind is harmless
		}
	}

	private static void deleteFile(Path path) {
		try {
			Files.deleteIfExists(path);
		}
		catch (IOException ex) {
			// Best effort
		}
	}

}
