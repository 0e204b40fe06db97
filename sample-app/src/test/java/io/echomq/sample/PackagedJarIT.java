package io.echomq.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's executable jar, as {@code mvn package} leaves it: the sample declares the
 * dev services module the way the README tells an application to
 * ({@code <optional>true</optional>}, nothing else), so the jar must hold no server
 * binary, no class that starts server processes and no dev services. Runs in the
 * {@code integration-test} phase, after Spring Boot's repackage (the sample's POM sets
 * the jar's path).
 *
 * @author EchoMQ
 */
class PackagedJarIT {

	private static final String LIB = "BOOT-INF/lib/";

	private static final List<String> libraries = new ArrayList<>();

	/** Every entry of every nested jar, as {@code library!/entry}. */
	private static final List<String> nestedEntries = new ArrayList<>();

	private static final List<String> topLevelEntries = new ArrayList<>();

	@BeforeAll
	static void readJar() throws IOException {
		String location = System.getProperty("echomq.packaged-jar");
		assertThat(location).as("system property echomq.packaged-jar (set by the sample's POM)").isNotBlank();
		Path jar = Path.of(location);
		assertThat(jar).as("the repackaged jar (run in the integration-test phase, after package)").isRegularFile();
		try (JarFile file = new JarFile(jar.toFile())) {
			Enumeration<JarEntry> entries = file.entries();
			while (entries.hasMoreElements()) {
				JarEntry entry = entries.nextElement();
				topLevelEntries.add(entry.getName());
				if (entry.getName().startsWith(LIB) && entry.getName().endsWith(".jar")) {
					String library = entry.getName().substring(LIB.length());
					libraries.add(library);
					try (InputStream in = file.getInputStream(entry); JarInputStream nested = new JarInputStream(in)) {
						for (JarEntry inner = nested.getNextJarEntry(); inner != null; inner = nested
							.getNextJarEntry()) {
							nestedEntries.add(library + "!/" + inner.getName());
						}
					}
				}
			}
		}
		assertThat(Files.size(jar)).isPositive();
	}

	@Test
	void jarHoldsTheRuntime() {
		assertThat(topLevelEntries).contains("BOOT-INF/classes/io/echomq/sample/SampleApplication.class");
		assertThat(libraries).anyMatch((name) -> name.startsWith("echomq-core-"))
			.anyMatch((name) -> name.startsWith("echomq-spring-boot-autoconfigure-"))
			.anyMatch((name) -> name.startsWith("echomq-spring-boot-dashboard-"))
			.anyMatch((name) -> name.startsWith("lettuce-core-"));
	}

	@Test
	void jarHoldsNoDevelopmentOrTestModule() {
		List<String> banned = List.of("embedded-redis-", "echomq-server-process-", "echomq-test-",
				"echomq-spring-boot-devservices-", "testcontainers-", "junit-");
		assertThat(libraries).as("libraries in " + LIB)
			.filteredOn((name) -> banned.stream().anyMatch(name::startsWith))
			.isEmpty();
	}

	@Test
	void jarHoldsNoServerBinaryNorProcessStarter() {
		List<String> all = new ArrayList<>(topLevelEntries);
		all.addAll(nestedEntries);
		assertThat(all).as("entries of the jar and of its libraries")
			.filteredOn((name) -> isServerBinary(name) || name.contains("io/echomq/test/")
					|| name.contains("io/echomq/devservices/"))
			.isEmpty();
	}

	private static boolean isServerBinary(String entry) {
		String name = entry.substring(entry.lastIndexOf('/') + 1);
		return name.startsWith("redis-server") || name.startsWith("valkey-server");
	}

}
