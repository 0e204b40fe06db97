package io.echomq.test.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Extracts the Redis binary that the {@code com.github.codemonstur:embedded-redis} jar
 * ships at its root, without depending on that library's classes. The binary is extracted
 * once per JVM.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class EmbeddedRedisBinary {

	private static final Object LOCK = new Object();

	private static @Nullable Optional<ServerBinary> extracted;

	private EmbeddedRedisBinary() {
	}

	/**
	 * Return the name of the class path resource that holds the binary for a platform.
	 * @param osName the {@code os.name} system property
	 * @param osArch the {@code os.arch} system property
	 * @return the resource name, or empty if embedded-redis ships none for the platform
	 */
	static Optional<String> resourceName(String osName, String osArch) {
		String os = osName.toLowerCase(Locale.ROOT);
		String arch = osArch.toLowerCase(Locale.ROOT);
		boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
		boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
		boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i686");
		if (os.contains("linux")) {
			if (amd64) {
				return Optional.of("redis-server-6.2.6-v5-linux-amd64");
			}
			if (arm64) {
				return Optional.of("redis-server-6.2.7-linux-arm64");
			}
			if (x86) {
				return Optional.of("redis-server-6.2.7-linux-386");
			}
		}
		if (os.contains("mac") || os.contains("darwin")) {
			if (amd64) {
				return Optional.of("redis-server-6.2.6-v5-darwin-amd64");
			}
			if (arm64) {
				return Optional.of("redis-server-6.2.6-v5-darwin-arm64");
			}
		}
		return Optional.empty();
	}

	static Optional<String> currentResourceName() {
		return resourceName(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
	}

	/**
	 * Extract the binary for this platform, once per JVM.
	 * @return the binary, or empty if it is not on the class path or cannot be run
	 */
	static Optional<ServerBinary> extract() {
		synchronized (LOCK) {
			Optional<ServerBinary> result = extracted;
			if (result == null || result.filter((binary) -> Files.isExecutable(binary.executable())).isEmpty()) {
				result = currentResourceName().flatMap(EmbeddedRedisBinary::extract);
				extracted = result;
			}
			return result;
		}
	}

	private static Optional<ServerBinary> extract(String resourceName) {
		URL resource = findResource(resourceName);
		if (resource == null) {
			return Optional.empty();
		}
		try {
			// not named after the resource, whose version (6.2.6) is not the one the
			// binary reports (6.2.11): messages name the reported one only
			Path file = Files.createTempFile("echomq-embedded-redis-server-", "");
			file.toFile().deleteOnExit();
			try (InputStream in = resource.openStream()) {
				Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
			}
			if (!file.toFile().setExecutable(true, true)) {
				throw new IOException("Cannot make " + file + " executable");
			}
			return VersionProbe.probe(file)
				.map((probed) -> new ServerBinary(file, ServerFlavor.REDIS, probed.version()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot extract embedded Redis binary " + resourceName, ex);
		}
	}

	private static @Nullable URL findResource(String name) {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		URL resource = (context != null) ? context.getResource(name) : null;
		if (resource == null) {
			ClassLoader own = EmbeddedRedisBinary.class.getClassLoader();
			resource = (own != null) ? own.getResource(name) : ClassLoader.getSystemResource(name);
		}
		return resource;
	}

}
