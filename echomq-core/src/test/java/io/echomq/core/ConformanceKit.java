package io.echomq.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The conformance kit ({@code protocol/conformance/*.json}, described in
 * {@code docs/protocol.md}) as the Java runner reads it: the cases, the queue they are
 * written for ({@code q}, in the {@code {q}} tags and as {@code $queue}) bound to the
 * queue of a run, and the matching of replies and keyspaces with the time placeholders.
 *
 * @author EchoMQ
 * @see ConformanceKitTests
 */
final class ConformanceKit {

	/** The kit's directory, from the module's directory. */
	static final Path DIRECTORY = Path.of(System.getProperty("echomq.conformance.kit", "../protocol/conformance"));

	private static final Pattern TOKEN = Pattern.compile("\\$(any|[a-z][a-z0-9_]*)([+-]\\d+)?");

	private static final Pattern TAG = Pattern.compile("\\{q(#\\d+)?\\}");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern ERROR_CODE = Pattern.compile("\\b(EMQ[A-Z]+)\\b");

	private ConformanceKit() {
	}

	/**
	 * Read every case of the kit, in file name order.
	 * @return the cases
	 */
	static List<Case> cases() {
		try (Stream<Path> files = Files.list(DIRECTORY)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".json"))
				.sorted()
				.map(ConformanceKit::read)
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No conformance kit at " + DIRECTORY.toAbsolutePath(), ex);
		}
	}

	private static Case read(Path file) {
		try {
			JsonNode node = JSON.readTree(Files.readString(file));
			return new Case(node.get("name").asString(), file.getFileName().toString(), node);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the code of a script's error reply: the first {@code EMQ...} word of the
	 * message. A refusal made with {@code redis.error_reply} starts with it; one raised
	 * with Lua's {@code error()} arrives as {@code ERR <code> ...}, or on Redis 6.2 as
	 * {@code Error running script (call to f_<sha>): @user_script:<line>: <code> ...}.
	 * @param message the error message
	 * @return the code, else the message's first word
	 */
	static String errorCode(String message) {
		Matcher code = ERROR_CODE.matcher(message);
		return code.find() ? code.group(1) : message.split(" ", 2)[0];
	}

	/**
	 * Write the case's queue {@code q} as the given queue: in {@code {q}} and
	 * {@code {q#i}} tags, and every {@code $queue}.
	 * @param text a string of the case
	 * @param queue the queue of the run
	 * @return the string for the run
	 */
	static String bind(String text, String queue) {
		return TAG.matcher(text)
			.replaceAll((match) -> Matcher
				.quoteReplacement("{" + queue + ((match.group(1) != null) ? match.group(1) : "") + "}"))
			.replace("$queue", queue);
	}

	/**
	 * Convert a JSON value of a case to the form replies take here: strings, longs,
	 * lists, {@code null}, with the queue bound.
	 * @param node the value
	 * @param queue the queue of the run
	 * @return the value
	 */
	static @Nullable Object value(JsonNode node, String queue) {
		if (node.isArray()) {
			List<@Nullable Object> list = new ArrayList<>();
			node.forEach((element) -> list.add(value(element, queue)));
			return list;
		}
		if (node.isObject()) {
			Map<String, String> fields = new LinkedHashMap<>();
			node.properties()
				.forEach((field) -> fields.put(bind(field.getKey(), queue), bind(field.getValue().asString(), queue)));
			return fields;
		}
		if (node.isNull()) {
			return null;
		}
		if (node.isIntegralNumber()) {
			return node.asLong();
		}
		return bind(node.asString(), queue);
	}

	/**
	 * A keyspace as the kit writes one: key to entry, the entry's {@code type},
	 * {@code value} and optional {@code ttl}.
	 * @param node the JSON object
	 * @param queue the queue of the run
	 * @return the keyspace, sorted by key
	 */
	static Map<String, Entry> keyspace(JsonNode node, String queue) {
		Map<String, Entry> keys = new TreeMap<>();
		node.properties().forEach((property) -> {
			JsonNode entry = property.getValue();
			Object value = value(entry.get("value"), queue);
			Long ttl = entry.has("ttl") ? entry.get("ttl").asLong() : null;
			keys.put(bind(property.getKey(), queue), new Entry(entry.get("type").asString(), value, ttl));
		});
		return keys;
	}

	/**
	 * One case of the kit.
	 *
	 * @param name its name
	 * @param file its file name
	 * @param node its content
	 */
	record Case(String name, String file, JsonNode node) {

		@Override
		public String toString() {
			return this.name;
		}

	}

	/**
	 * A key of a keyspace: its type, its value (a map for a hash, a list of
	 * {@code [member, score]} for a sorted set, a list for a list or a set, a string for
	 * a string, a list of {@code [id, fields]} for a stream) and its TTL in ms
	 * ({@code null}: none; expected: at most this).
	 *
	 * @param type the type
	 * @param value the value
	 * @param ttl the TTL
	 */
	record Entry(String type, @Nullable Object value, @Nullable Long ttl) {

	}

	/**
	 * The time placeholders of one case: each call's window (the server's {@code TIME}
	 * just before and just after it) under its name, and the values bound so far.
	 */
	static final class Times {

		private final Map<String, long[]> windows = new HashMap<>();

		private Map<String, Long> bound = new HashMap<>();

		void open(String name, long start, long end) {
			this.windows.put(name, new long[] { start, end });
			this.bound.remove(name);
		}

		private boolean accept(String name, long offset, long number) {
			if ("minute".equals(name)) {
				long[] now = this.windows.get("now");
				if (now == null) {
					return false;
				}
				Long bound = this.bound.get("now");
				if (bound != null) {
					return number == Math.floorDiv(bound, 60000) + offset;
				}
				return Math.floorDiv(now[0], 60000) <= number - offset
						&& number - offset <= Math.floorDiv(now[1], 60000);
			}
			long[] window = this.windows.get(name);
			if (window == null) {
				throw new AssertionError("Placeholder $" + name + " names no call's time");
			}
			long value = number - offset;
			Long bound = this.bound.get(name);
			if (bound != null) {
				return value == bound;
			}
			if (window[0] <= value && value <= window[1]) {
				this.bound.put(name, value);
				return true;
			}
			return false;
		}

		/**
		 * Whether a text matches an expected text with placeholders, binding the times it
		 * names only when it does.
		 */
		boolean matches(String expected, String actual) {
			Matcher tokens = TOKEN.matcher(expected);
			StringBuilder pattern = new StringBuilder();
			List<String[]> found = new ArrayList<>();
			int at = 0;
			while (tokens.find()) {
				pattern.append(Pattern.quote(expected.substring(at, tokens.start())));
				pattern.append("any".equals(tokens.group(1)) ? "(.*?)" : "(-?\\d+)");
				found.add(new String[] { tokens.group(1), (tokens.group(2) != null) ? tokens.group(2) : "0" });
				at = tokens.end();
			}
			if (found.isEmpty()) {
				return expected.equals(actual);
			}
			pattern.append(Pattern.quote(expected.substring(at)));
			Matcher match = Pattern.compile(pattern.toString(), Pattern.DOTALL).matcher(actual);
			if (!match.matches()) {
				return false;
			}
			Map<String, Long> saved = new HashMap<>(this.bound);
			for (int i = 0; i < found.size(); i++) {
				String name = found.get(i)[0];
				if (!"any".equals(name) && !accept(name, Long.parseLong(found.get(i)[1].replace("+", "")),
						Long.parseLong(match.group(i + 1)))) {
					this.bound = saved;
					return false;
				}
			}
			return true;
		}

		/**
		 * Assert that a reply (or a keyspace value) matches what the case expects.
		 */
		void match(@Nullable Object expected, @Nullable Object actual, String where) {
			if (expected instanceof Map<?, ?> fields) {
				matchHash(fields, fields(actual, where), where);
			}
			else if (expected instanceof List<?> list) {
				if (!(actual instanceof List<?> got) || got.size() != list.size()) {
					throw new AssertionError(where + ": expected " + expected + ", was " + actual);
				}
				for (int i = 0; i < list.size(); i++) {
					match(list.get(i), got.get(i), where + "[" + (i + 1) + "]");
				}
			}
			else if (expected == null) {
				if (actual != null) {
					throw new AssertionError(where + ": expected nil, was " + actual);
				}
			}
			else if (expected instanceof Long number) {
				if (!(actual instanceof Long) && !(actual instanceof String)
						|| !number.toString().equals(actual.toString())) {
					throw new AssertionError(where + ": expected " + expected + ", was " + actual);
				}
			}
			else if (actual == null || actual instanceof List || !matches(expected.toString(), actual.toString())) {
				throw new AssertionError(where + ": expected '" + expected + "', was '" + actual + "'");
			}
		}

		/**
		 * Assert that a keyspace is the one the case expects: the same keys, each of the
		 * same type and value, with a TTL of at most the expected one where one is
		 * expected, and none elsewhere.
		 */
		void matchKeyspace(Map<String, Entry> expected, Map<String, Entry> actual, String where) {
			TreeSet<String> missing = new TreeSet<>(expected.keySet());
			missing.removeAll(actual.keySet());
			TreeSet<String> extra = new TreeSet<>(actual.keySet());
			extra.removeAll(expected.keySet());
			if (!missing.isEmpty() || !extra.isEmpty()) {
				throw new AssertionError(where + ": keys missing " + missing + ", keys not expected " + extra);
			}
			expected.forEach((key, entry) -> {
				Entry got = actual.get(key);
				String at = where + " " + key;
				if (!entry.type().equals(got.type())) {
					throw new AssertionError(at + ": expected a " + entry.type() + ", was a " + got.type());
				}
				match(entry.value(), got.value(), at);
				if (entry.ttl() != null) {
					if (got.ttl() == null || got.ttl() <= 0 || got.ttl() > entry.ttl()) {
						throw new AssertionError(
								at + ": expected a TTL of at most " + entry.ttl() + " ms, was " + got.ttl());
					}
				}
				else if (got.ttl() != null) {
					throw new AssertionError(at + ": expected no TTL, was " + got.ttl() + " ms");
				}
			});
		}

		/**
		 * The fields of a hash, or of a row in a reply: a flat list of field, value pairs
		 * in no set order.
		 */
		private static Map<?, ?> fields(@Nullable Object actual, String where) {
			if (actual instanceof Map<?, ?> map) {
				return map;
			}
			if (actual instanceof List<?> list && list.size() % 2 == 0) {
				Map<String, String> pairs = new LinkedHashMap<>();
				for (int i = 0; i < list.size(); i += 2) {
					pairs.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
				}
				return pairs;
			}
			throw new AssertionError(where + ": expected fields, was " + actual);
		}

		private void matchHash(Map<?, ?> expected, Map<?, ?> actual, String where) {
			if (expected.size() != actual.size()) {
				throw new AssertionError(where + ": expected fields "
						+ new TreeSet<>(expected.keySet().stream().map(Object::toString).toList()) + ", were "
						+ new TreeSet<>(actual.keySet().stream().map(Object::toString).toList()));
			}
			Map<String, String> left = new TreeMap<>();
			actual.forEach((field, value) -> left.put(field.toString(), value.toString()));
			// literal fields first, so a field with a placeholder cannot take a literal
			// one's match
			List<String> fields = expected.keySet()
				.stream()
				.map(Object::toString)
				.sorted((a, b) -> Boolean.compare(TOKEN.matcher(a).find(), TOKEN.matcher(b).find()))
				.toList();
			for (String field : fields) {
				String value = expected.get(field).toString();
				String taken = null;
				for (Map.Entry<String, String> candidate : left.entrySet()) {
					Map<String, Long> saved = new HashMap<>(this.bound);
					if (matches(field, candidate.getKey()) && matches(value, candidate.getValue())) {
						taken = candidate.getKey();
						break;
					}
					this.bound = saved;
				}
				if (taken == null) {
					throw new AssertionError(where + ": no field matches '" + field + "': '" + value + "' (fields "
							+ new TreeMap<>(actual) + ")");
				}
				left.remove(taken);
			}
		}

	}

}
