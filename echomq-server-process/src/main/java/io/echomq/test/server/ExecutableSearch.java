package io.echomq.test.server;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Finds executables in the directories of a {@code PATH} variable.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ExecutableSearch {

	private ExecutableSearch() {
	}

	/**
	 * Return every executable file of the given name, in {@code PATH} order.
	 * @param name the file name, e.g. {@code valkey-server}
	 * @param env the environment to read {@code PATH} from
	 * @return the matching files, possibly empty
	 */
	static List<Path> onPath(String name, Function<String, @Nullable String> env) {
		String path = env.apply("PATH");
		List<Path> found = new ArrayList<>();
		if (path == null) {
			return found;
		}
		for (String directory : path.split(File.pathSeparator)) {
			if (directory.isBlank()) {
				continue;
			}
			try {
				Path candidate = Path.of(directory).resolve(name);
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate) && !found.contains(candidate)) {
					found.add(candidate);
				}
			}
			catch (InvalidPathException ex) {
				// Not a usable directory, ignore it as a shell would
			}
		}
		return found;
	}

	static String describePath(Function<String, @Nullable String> env) {
		String path = env.apply("PATH");
		return (path != null) ? path : "<unset>";
	}

}
