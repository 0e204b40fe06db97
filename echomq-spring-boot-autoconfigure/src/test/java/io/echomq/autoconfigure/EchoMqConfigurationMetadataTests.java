package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata the processor writes for {@link EchoMqProperties}: what an
 * IDE offers and describes under {@code echomq.*}.
 *
 * @author EchoMQ
 */
class EchoMqConfigurationMetadataTests {

	@Test
	void resultsShouldBeAGroupWithEachPropertyDescribedAndItsDefault() throws IOException {
		JsonNode metadata = metadata();
		Map<String, JsonNode> properties = new HashMap<>();
		metadata.get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
		assertThat(properties).as("results is a group, not one opaque property").doesNotContainKey("echomq.results");
		assertThat(properties).containsKeys("echomq.results.max-size", "echomq.results.ttl");
		assertThat(properties.get("echomq.results.max-size").get("defaultValue").asString()).isEqualTo("64KB");
		assertThat(properties.get("echomq.results.max-size").get("description").asString())
			.startsWith("Largest serialized result");
		assertThat(properties.get("echomq.results.ttl").get("defaultValue").asString()).isEqualTo("10m");
		assertThat(properties.get("echomq.results.ttl").get("type").asString()).isEqualTo("java.time.Duration");
		List<String> groups = new ArrayList<>();
		metadata.get("groups").forEach((group) -> groups.add(group.get("name").asString()));
		assertThat(groups).contains("echomq.results");
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json",
				EchoMqProperties.class.getClassLoader())
			.getInputStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
	}

}
