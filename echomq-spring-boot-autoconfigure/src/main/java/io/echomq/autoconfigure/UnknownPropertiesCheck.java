package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.origin.Origin;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.StreamUtils;

/**
 * Finds the {@code echomq.*} keys of the environment that no module of EchoMQ on the
 * class path declares in its configuration metadata, a typo or a renamed key whose value
 * would otherwise be ignored without a word. Each is logged once at WARN, naming its
 * replacement when the metadata records one; with
 * {@code echomq.fail-on-unknown-properties=true} they fail the start-up instead.
 *
 * @author EchoMQ
 */
final class UnknownPropertiesCheck implements BeanFactoryPostProcessor, EnvironmentAware {

	static final String FAIL_PROPERTY = "echomq.fail-on-unknown-properties";

	private static final Log logger = LogFactory.getLog(UnknownPropertiesCheck.class);

	private static final String METADATA = "META-INF/spring-configuration-metadata.json";

	private static final String ATTACHED_SOURCE = "configurationProperties";

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("echomq");

	/**
	 * The groups of EchoMQ's optional modules: their keys are left alone when the module
	 * is not on the class path (a jar packaged without the dev-time module, say), where
	 * its metadata cannot tell them from typos.
	 */
	private static final List<String> OPTIONAL_GROUPS = List.of("echomq.devservices", "echomq.dashboard");

	private @Nullable Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (this.environment instanceof ConfigurableEnvironment configurable) {
			check(configurable, beanFactory.getBeanClassLoader());
		}
	}

	/**
	 * Warn about, or fail on, the unknown {@code echomq.*} keys of the environment.
	 * @param environment the environment
	 * @param classLoader where the configuration metadata is read from
	 * @return the unknown keys, each with what to use instead if known
	 */
	static Map<String, @Nullable String> check(ConfigurableEnvironment environment, @Nullable ClassLoader classLoader) {
		Known known = Known.load(classLoader);
		if (known == null) {
			logger.debug("No EchoMQ configuration metadata on the class path: echomq.* keys not checked");
			return Map.of();
		}
		Map<String, @Nullable String> unknown = new LinkedHashMap<>();
		List<String> lines = new ArrayList<>();
		for (PropertySource<?> propertySource : environment.getPropertySources()) {
			if (ATTACHED_SOURCE.equals(propertySource.getName())) {
				continue;
			}
			ConfigurationPropertySource source = ConfigurationPropertySource.from(propertySource);
			if (!(source instanceof IterableConfigurationPropertySource iterable)) {
				continue;
			}
			boolean fromVariables = propertySource instanceof SystemEnvironmentPropertySource;
			iterable.filter(ROOT::isAncestorOf).forEach((name) -> {
				String key = name.toString();
				if (unknown.containsKey(key) || known.isKnown(name) || (fromVariables && known.isKnownVariable(name))
						|| known.ofAbsentModule(key)) {
					return;
				}
				String replacement = known.replacement(name);
				unknown.put(key, replacement);
				lines.add(describe(key, replacement, (replacement != null) ? null : known.closest(name),
						iterable.getConfigurationProperty(name)));
			});
		}
		if (unknown.isEmpty()) {
			return unknown;
		}
		if (environment.getProperty(FAIL_PROPERTY, Boolean.class, false)) {
			throw new EchoMqConfigurationException(
					"EchoMQ does not know " + ((lines.size() == 1) ? "this property" : "these properties")
							+ ", whose values would be ignored:\n\n    " + String.join("\n    ", lines),
					"Rename each property as shown or remove it (the keys are listed in docs/operations.md, Configuration), "
							+ "or set " + FAIL_PROPERTY + "=false to only log a warning.");
		}
		lines.forEach((line) -> logger.warn(line));
		return unknown;
	}

	private static String describe(String key, @Nullable String replacement, @Nullable String closest,
			@Nullable ConfigurationProperty property) {
		Origin origin = (property != null) ? property.getOrigin() : null;
		String from = (origin != null) ? " (from " + origin + ")" : "";
		return (replacement != null)
				? "Property '" + key + "'" + from + " was renamed to '" + replacement + "': EchoMQ no longer reads it"
				: "Unknown property '" + key + "'" + from + ": EchoMQ does not read it, its value is ignored"
						+ ((closest != null) ? "; did you mean '" + closest + "'?" : "");
	}

	/**
	 * The keys declared in the configuration metadata of every jar on the class path.
	 */
	private static final class Known {

		/** Exact names, in uniform form. */
		private final Set<String> names = new LinkedHashSet<>();

		/** Names with {@code *} for a map key, by element, in uniform form. */
		private final List<String[]> patterns = new ArrayList<>();

		/** Names whose value is a map of plain values: any key below them binds. */
		private final List<ConfigurationPropertyName> maps = new ArrayList<>();

		/** Known names and patterns as the metadata spells them. */
		private final List<String> spelled = new ArrayList<>();

		/** Keys no longer read, by uniform name, with their replacement if any. */
		private final Map<String, @Nullable String> renamed = new LinkedHashMap<>();

		/**
		 * Whether a key belongs to an optional EchoMQ module whose metadata is not on the
		 * class path.
		 */
		boolean ofAbsentModule(String key) {
			for (String group : OPTIONAL_GROUPS) {
				if (key.startsWith(group + ".")
						&& this.spelled.stream().noneMatch((name) -> name.startsWith(group + "."))) {
					return true;
				}
			}
			return false;
		}

		static @Nullable Known load(@Nullable ClassLoader classLoader) {
			Known known = new Known();
			ClassLoader loader = (classLoader != null) ? classLoader : Known.class.getClassLoader();
			try {
				Enumeration<URL> resources = loader.getResources(METADATA);
				while (resources.hasMoreElements()) {
					try (InputStream in = resources.nextElement().openStream()) {
						known.read(StreamUtils.copyToString(in, StandardCharsets.UTF_8));
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				logger.debug("Could not read the configuration metadata", ex);
				return null;
			}
			return (known.names.isEmpty()) ? null : known;
		}

		@SuppressWarnings("unchecked")
		private void read(String json) {
			Map<String, Object> metadata = JsonParserFactory.getJsonParser().parseMap(json);
			Object properties = metadata.get("properties");
			if (!(properties instanceof List<?> list)) {
				return;
			}
			for (Object item : list) {
				Map<String, Object> property = (Map<String, Object>) item;
				String name = (String) property.get("name");
				if (name == null || !name.startsWith("echomq.")) {
					continue;
				}
				Object deprecation = property.get("deprecation");
				if (deprecation instanceof Map<?, ?> deprecated && "error".equals(deprecated.get("level"))) {
					this.renamed.put(uniform(ConfigurationPropertyName.of(name)),
							(String) deprecated.get("replacement"));
				}
				else if (name.contains("*")) {
					this.spelled.add(name);
					String[] elements = name.split("\\.");
					for (int i = 0; i < elements.length; i++) {
						if (!"*".equals(elements[i])) {
							elements[i] = uniform(ConfigurationPropertyName.of(elements[i]));
						}
					}
					this.patterns.add(elements);
				}
				else {
					ConfigurationPropertyName parsed = ConfigurationPropertyName.of(name);
					this.names.add(uniform(parsed));
					this.spelled.add(name);
					Object type = property.get("type");
					if (type instanceof String typeName && typeName.startsWith("java.util.Map<")) {
						this.maps.add(parsed);
					}
				}
			}
		}

		boolean isKnown(ConfigurationPropertyName name) {
			ConfigurationPropertyName value = withoutIndexes(name);
			String uniform = uniform(value);
			if (this.names.contains(uniform) || matchesPattern(value)) {
				return true;
			}
			for (String known : this.names) {
				if (known.startsWith(uniform + ".")) {
					return true;
				}
			}
			for (ConfigurationPropertyName map : this.maps) {
				if (map.isAncestorOf(value) && !hasPatternBelow(map)) {
					return true;
				}
			}
			return false;
		}

		/**
		 * An environment variable cannot tell a dash from a dot
		 * ({@code ECHOMQ_QUEUES_MAIL_MAX_ACTIVE}): compare without either.
		 */
		boolean isKnownVariable(ConfigurationPropertyName name) {
			String joined = uniform(withoutIndexes(name)).replace(".", "");
			for (String known : this.names) {
				if (known.replace(".", "").equals(joined)) {
					return true;
				}
			}
			for (ConfigurationPropertyName map : this.maps) {
				if (!hasPatternBelow(map) && joined.startsWith(uniform(map).replace(".", ""))) {
					return true;
				}
			}
			for (String[] pattern : this.patterns) {
				StringBuilder regex = new StringBuilder();
				for (String element : pattern) {
					regex.append("*".equals(element) ? ".+" : Pattern.quote(element));
				}
				if (joined.matches(regex.toString())) {
					return true;
				}
			}
			return false;
		}

		/**
		 * The known key nearest to a misspelt one, a map key kept as written, if it is a
		 * few edits away.
		 */
		@Nullable String closest(ConfigurationPropertyName name) {
			ConfigurationPropertyName value = withoutIndexes(name);
			String written = uniform(value);
			List<String> candidates = new ArrayList<>(this.names);
			for (String[] pattern : this.patterns) {
				if (pattern.length == value.getNumberOfElements()) {
					String[] filled = pattern.clone();
					for (int i = 0; i < filled.length; i++) {
						if ("*".equals(filled[i])) {
							filled[i] = value.getElement(i, Form.UNIFORM);
						}
					}
					candidates.add(String.join(".", filled));
				}
			}
			String best = null;
			int bestDistance = Math.max(2, written.length() / 10) + 1;
			for (String candidate : candidates) {
				int distance = distance(written, candidate);
				if (distance < bestDistance) {
					best = candidate;
					bestDistance = distance;
				}
			}
			return (best != null) ? dashed(best, value) : null;
		}

		/**
		 * The uniform name of a known key as its metadata spells it, map keys as written.
		 */
		private String dashed(String uniform, ConfigurationPropertyName written) {
			for (String name : this.spelled) {
				String[] elements = name.split("\\.");
				if (elements.length != written.getNumberOfElements()) {
					continue;
				}
				StringBuilder result = new StringBuilder();
				StringBuilder asUniform = new StringBuilder();
				for (int i = 0; i < elements.length; i++) {
					String element = "*".equals(elements[i]) ? written.getElement(i, Form.ORIGINAL) : elements[i];
					String uniformElement = "*".equals(elements[i]) ? written.getElement(i, Form.UNIFORM)
							: ConfigurationPropertyName.of(elements[i]).getElement(0, Form.UNIFORM);
					result.append((i > 0) ? "." : "").append(element);
					asUniform.append((i > 0) ? "." : "").append(uniformElement);
				}
				if (asUniform.toString().equals(uniform)) {
					return result.toString();
				}
			}
			return uniform;
		}

		private static int distance(String a, String b) {
			int[] previous = new int[b.length() + 1];
			int[] current = new int[b.length() + 1];
			for (int j = 0; j <= b.length(); j++) {
				previous[j] = j;
			}
			for (int i = 1; i <= a.length(); i++) {
				current[0] = i;
				for (int j = 1; j <= b.length(); j++) {
					int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
					current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
				}
				int[] swap = previous;
				previous = current;
				current = swap;
			}
			return previous[b.length()];
		}

		@Nullable String replacement(ConfigurationPropertyName name) {
			return this.renamed.get(uniform(withoutIndexes(name)));
		}

		private boolean matchesPattern(ConfigurationPropertyName name) {
			for (String[] pattern : this.patterns) {
				if (pattern.length != name.getNumberOfElements()) {
					continue;
				}
				boolean matches = true;
				for (int i = 0; i < pattern.length && matches; i++) {
					matches = "*".equals(pattern[i]) || pattern[i].equals(name.getElement(i, Form.UNIFORM));
				}
				if (matches) {
					return true;
				}
			}
			return false;
		}

		/** {@code echomq.queues} is a map, but its values are checked by pattern. */
		private boolean hasPatternBelow(ConfigurationPropertyName map) {
			String prefix = uniform(map);
			for (String[] pattern : this.patterns) {
				if (String.join(".", pattern).startsWith(prefix + ".*")) {
					return true;
				}
			}
			return false;
		}

		/** {@code echomq.listener.retry-for[0]} is {@code echomq.listener.retry-for}. */
		private static ConfigurationPropertyName withoutIndexes(ConfigurationPropertyName name) {
			ConfigurationPropertyName result = name;
			while (result.getNumberOfElements() > 1 && result.isNumericIndex(result.getNumberOfElements() - 1)) {
				result = result.getParent();
			}
			return result;
		}

		private static String uniform(ConfigurationPropertyName name) {
			StringBuilder result = new StringBuilder();
			for (int i = 0; i < name.getNumberOfElements(); i++) {
				result.append((i > 0) ? "." : "").append(name.getElement(i, Form.UNIFORM));
			}
			return result.toString();
		}

	}

}
