package com.example.readme;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code mvn package} leaves for {@code java -jar} in an application that follows
 * the README (dev services optional, nothing else): EchoMQ's runtime, and no library of a
 * dev or test module nor embedded-redis. Runs in the {@code integration-test} phase,
 * after Spring Boot's repackage.
 *
 * @author EchoMQ
 */
class ReadmeAppPackagedJarIT {

	@Test
	void jarHoldsTheRuntimeAndNoDevelopmentOrTestModule() throws IOException {
		String location = System.getProperty("echomq.packaged-jar");
		assertThat(location).as("system property echomq.packaged-jar (set by the POM)").isNotBlank();
		List<String> libraries;
		try (JarFile jar = new JarFile(Path.of(location).toFile())) {
			libraries = jar.stream()
				.map(JarEntry::getName)
				.filter((name) -> name.startsWith("BOOT-INF/lib/"))
				.map((name) -> name.substring("BOOT-INF/lib/".length()))
				.toList();
		}
		assertThat(libraries).anyMatch((name) -> name.startsWith("echomq-core-"))
			.anyMatch((name) -> name.startsWith("echomq-spring-boot-autoconfigure-"));
		List<String> banned = List.of("embedded-redis-", "echomq-server-process-", "echomq-test-",
				"echomq-spring-boot-devservices-");
		assertThat(libraries).filteredOn((name) -> banned.stream().anyMatch(name::startsWith)).isEmpty();
	}

}
