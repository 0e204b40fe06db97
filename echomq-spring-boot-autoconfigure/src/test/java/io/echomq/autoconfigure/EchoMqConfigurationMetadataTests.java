package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.echomq.schedule.MisfirePolicy;
import io.echomq.schedule.OverlapPolicy;
import org.jspecify.annotations.Nullable;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata the processor writes for {@link EchoMqProperties}: what an
 * IDE offers and describes under {@code echomq.*}, including the keys of each queue and
 * schedule ({@code echomq.queues.<queue>.*}, {@code echomq.schedules.<name>.*}), which
 * the processor does not see in a map and the additional metadata declares.
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

	@Test
	void everyQueueKeyShouldBeDescribedWithItsDefault() throws IOException {
		assertDescribed("echomq.queues.*.", EchoMqQueueProperties.class);
	}

	@Test
	void everyScheduleKeyShouldBeDescribedWithItsDefault() throws IOException {
		assertDescribed("echomq.schedules.*.", EchoMqProperties.Schedule.class);
	}

	@Test
	void enumsAndClassListsOfTheMapGroupsShouldHaveValueHints() throws IOException {
		Map<String, JsonNode> hints = new HashMap<>();
		metadata().get("hints").forEach((hint) -> hints.put(hint.get("name").asString(), hint));
		assertEnumHinted(hints.get("echomq.schedules.*.misfire"), MisfirePolicy.values());
		assertEnumHinted(hints.get("echomq.schedules.*.overlap"), OverlapPolicy.values());
		assertThat(hints.get("echomq.schedules.*.cron").get("values").toString()).contains("@daily");
		for (String key : List.of("echomq.queues.*.retry-for", "echomq.queues.*.no-retry-for")) {
			JsonNode provider = hints.get(key).get("providers").get(0);
			assertThat(provider.get("name").asString()).as(key).isEqualTo("class-reference");
			assertThat(provider.get("parameters").get("target").asString()).isEqualTo("java.lang.Throwable");
		}
	}

	private static void assertEnumHinted(JsonNode hint, Enum<?>[] constants) {
		List<String> values = new ArrayList<>();
		hint.get("values").forEach((value) -> {
			values.add(value.get("value").asString());
			assertThat(value.get("description").asString()).isNotBlank();
		});
		assertThat(values).containsExactlyInAnyOrder(Arrays.stream(constants)
			.map((constant) -> constant.name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.toArray(String[]::new));
	}

	/**
	 * Each key of a map-valued group, found by walking the bound record, has a type and a
	 * description in the metadata, with the default the binding applies; and the metadata
	 * names no key the record does not bind.
	 */
	private static void assertDescribed(String prefix, Class<?> type) throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		metadata().get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
		Map<String, @Nullable String> keys = new TreeMap<>();
		collect(prefix, type, keys);
		assertThat(keys).hasSizeGreaterThan(5);
		keys.forEach((key, defaultValue) -> {
			JsonNode property = properties.get(key);
			assertThat(property).as("metadata of %s", key).isNotNull();
			assertThat(property.get("description").asString()).as("description of %s", key).isNotBlank().endsWith(".");
			assertThat(property.get("type").asString()).as("type of %s", key).isNotBlank();
			if (defaultValue != null) {
				assertThat(property.get("defaultValue")).as("default of %s", key).isNotNull();
				assertThat(property.get("defaultValue").asString()).as("default of %s", key).isEqualTo(defaultValue);
			}
		});
		assertThat(properties.keySet().stream().filter((name) -> name.startsWith(prefix)))
			.as("keys in the metadata that nothing binds")
			.containsExactlyInAnyOrderElementsOf(keys.keySet());
	}

	private static void collect(String prefix, Class<?> type, Map<String, @Nullable String> keys) {
		RecordComponent[] components = type.getRecordComponents();
		Parameter[] parameters = canonicalConstructor(type).getParameters();
		for (int i = 0; i < components.length; i++) {
			String key = prefix + kebab(components[i].getName());
			Class<?> componentType = components[i].getType();
			if (componentType.isRecord() && componentType.getPackageName().startsWith("io.echomq")) {
				collect(key + ".", componentType, keys);
			}
			else {
				DefaultValue defaultValue = parameters[i].getAnnotation(DefaultValue.class);
				keys.put(key,
						(defaultValue != null && defaultValue.value().length > 0) ? defaultValue.value()[0] : null);
			}
		}
	}

	private static Constructor<?> canonicalConstructor(Class<?> type) {
		Class<?>[] types = Arrays.stream(type.getRecordComponents())
			.map(RecordComponent::getType)
			.toArray(Class<?>[]::new);
		try {
			return type.getDeclaredConstructor(types);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String kebab(String name) {
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json",
				EchoMqProperties.class.getClassLoader())
			.getInputStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
	}

}
