package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import io.echomq.EchoMqTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classes a user's application runs, those of {@code echomq-core} and this module,
 * hold no test or dev infrastructure and start no processes. The starter's enforcer rule
 * keeps such artifacts out of its dependency tree; this keeps such code out of the jars.
 *
 * @author EchoMQ
 */
class RuntimeClassesTests {

	private static final List<String> FORBIDDEN_PACKAGES = List.of("io/echomq/test/", "io/echomq/server/",
			"io/echomq/devservices/");

	private static final List<String> FORBIDDEN_REFERENCES = List.of("java/lang/ProcessBuilder", "java/lang/Process",
			"org/junit/", "org/testcontainers/", "org/assertj/", "redis/embedded/", "org/springframework/messaging/",
			"io/echomq/test/");

	@Test
	void coreAndAutoConfigurationHoldOnlyRuntimeCode() throws Exception {
		Map<String, byte[]> classes = new TreeMap<>();
		classes.putAll(classesOf(EchoMqTemplate.class));
		classes.putAll(classesOf(EchoMqAutoConfiguration.class));
		assertThat(classes).containsKeys("io/echomq/EchoMqTemplate.class",
				"io/echomq/autoconfigure/EchoMqAutoConfiguration.class");
		List<String> misplaced = new ArrayList<>();
		classes.forEach((name, bytes) -> {
			FORBIDDEN_PACKAGES.stream().filter(name::startsWith).forEach((prefix) -> misplaced.add(name));
			String text = new String(bytes, StandardCharsets.ISO_8859_1);
			FORBIDDEN_REFERENCES.stream()
				.filter(text::contains)
				.forEach((reference) -> misplaced.add(name + " refers to " + reference));
		});
		assertThat(misplaced).isEmpty();
	}

	private static Map<String, byte[]> classesOf(Class<?> type) throws IOException, URISyntaxException {
		Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
		Map<String, byte[]> classes = new TreeMap<>();
		if (Files.isDirectory(location)) {
			try (Stream<Path> files = Files.walk(location)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".class")).toList()) {
					classes.put(location.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
				}
			}
			return classes;
		}
		try (JarFile jar = new JarFile(location.toFile())) {
			for (JarEntry entry : jar.stream().filter((candidate) -> candidate.getName().endsWith(".class")).toList()) {
				try (InputStream in = jar.getInputStream(entry)) {
					classes.put(entry.getName(), in.readAllBytes());
				}
			}
		}
		return classes;
	}

}
