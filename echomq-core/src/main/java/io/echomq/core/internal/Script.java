package io.echomq.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A Lua transition script: its name, body and SHA-1, loaded from
 * {@code io/echomq/core/scripts/<name>.lua} on the class path.
 * <p>
 * Pieces shared by several scripts (the server clock, the row schema, the fence check,
 * the wake push, the move to pending) live once in
 * {@code io/echomq/core/scripts/includes/<piece>.lua}. A script names each piece it uses
 * on a line of its own, {@code --- @include "piece"}, and {@link #load(String)} replaces
 * that line with the piece's text (pieces may include pieces; each is expanded once per
 * script, at its first mention). The server runs a script's top level on every call, so
 * every {@code local function} it defines is a new closure per call: the expanded text
 * keeps only the top-level functions and literal constants the script uses, directly or
 * through other kept ones ({@link #prune(String)}), so that a script pays only for the
 * pieces of an include it calls. The result is the {@link #body() body}: what the server
 * runs, and what the {@link #sha() SHA} names.
 *
 * @param name the script name
 * @param body the Lua source, includes expanded
 * @param sha the lowercase hex SHA-1 of the body, as Redis computes it
 * @author EchoMQ
 * @since 0.1.0
 */
public record Script(String name, String body, String sha) {

	private static final String LOCATION = "io/echomq/core/scripts/";

	private static final String INCLUDES = "includes/";

	private static final Pattern INCLUDE = Pattern.compile("^--- @include \"([a-z][a-z0-9_]*)\"[ \\t]*$");

	private static final String MARKER = "@include";

	private static final Pattern FUNCTION = Pattern.compile("^local function ([A-Za-z_][A-Za-z0-9_]*)\\(.*");

	private static final Pattern CONSTANT = Pattern.compile("^local ([A-Za-z_][A-Za-z0-9_]*) = ("
			+ "-?[0-9]+|'[^'\\\\]*'|\\{\\s*(?:(?:'[^'\\\\]*'|-?[0-9]+)\\s*,\\s*)*(?:'[^'\\\\]*'|-?[0-9]+)?\\s*\\})[ \\t]*$");

	/**
	 * Create a script from its name and (already expanded) body.
	 * @param name the script name
	 * @param body the Lua source
	 * @return the script
	 */
	public static Script of(String name, String body) {
		return new Script(name, body, sha1(body));
	}

	/**
	 * Load a script shipped with EchoMQ, its includes expanded.
	 * @param name the script name, without the {@code .lua} suffix
	 * @return the script
	 * @throws IllegalStateException if the script or one of its includes is not on the
	 * class path, or an include line is malformed or circular
	 */
	public static Script load(String name) {
		String source = read(LOCATION + name + ".lua");
		if (source == null) {
			throw new IllegalStateException("EchoMQ script '" + LOCATION + name + ".lua' is not on the class path");
		}
		return of(name, prune(expand(name, source, (piece) -> read(LOCATION + INCLUDES + piece + ".lua"))));
	}

	/**
	 * Expand the include lines of a script's source.
	 * @param name the script name, for error messages
	 * @param source the source
	 * @param includes the source of each include by name, {@code null} when there is none
	 * @return the expanded text
	 * @throws IllegalStateException if an include is missing, malformed or circular
	 */
	static String expand(String name, String source, Function<String, @Nullable String> includes) {
		return expand(name, source, includes, new HashSet<>(), new ArrayDeque<>());
	}

	private static String expand(String name, String source, Function<String, @Nullable String> includes,
			Set<String> done, Deque<String> path) {
		StringBuilder out = new StringBuilder(source.length() * 2);
		int start = 0;
		while (start < source.length()) {
			int end = source.indexOf('\n', start);
			int next = (end < 0) ? source.length() : end + 1;
			String line = source.substring(start, (end < 0) ? source.length() : end);
			if (line.contains(MARKER)) {
				Matcher matcher = INCLUDE.matcher(line);
				if (!matcher.matches()) {
					throw new IllegalStateException("EchoMQ script '" + name + "': malformed include line '" + line
							+ "' (expected: --- @include \"piece\")");
				}
				String piece = matcher.group(1);
				if (path.contains(piece)) {
					throw new IllegalStateException(
							"EchoMQ script '" + name + "': circular include of '" + piece + "' via " + path);
				}
				if (done.add(piece)) {
					String text = includes.apply(piece);
					if (text == null) {
						throw new IllegalStateException("EchoMQ script '" + name + "' includes '" + piece + "', but '"
								+ LOCATION + INCLUDES + piece + ".lua' is not on the class path");
					}
					path.push(piece);
					out.append(expand(name, text.endsWith("\n") ? text : text + "\n", includes, done, path));
					path.pop();
				}
			}
			else {
				out.append(source, start, next);
			}
			start = next;
		}
		return out.toString();
	}

	/**
	 * Drop the top-level definitions an expanded script does not use. A definition is a
	 * {@code local function name(...)} at the start of a line through the first line that
	 * is {@code end} alone, or a one-line {@code local NAME = } literal (a number, a
	 * quoted string, or a table of those). Everything else is kept, and so is every
	 * definition whose name occurs (outside comments and strings) in kept text. Neither
	 * kind of definition has an effect when it runs, so dropping an unused one changes
	 * nothing but the work of each call.
	 * @param body the expanded script
	 * @return the script without its unused definitions
	 * @throws IllegalStateException if a top-level function has no closing {@code end}
	 */
	static String prune(String body) {
		List<Unit> units = units(body);
		Map<String, List<Unit>> definitions = new HashMap<>();
		Deque<Unit> work = new ArrayDeque<>();
		for (Unit unit : units) {
			if (unit.name() != null) {
				definitions.computeIfAbsent(unit.name(), (key) -> new ArrayList<>()).add(unit);
			}
			else {
				work.add(unit);
			}
		}
		Set<Unit> kept = new HashSet<>(work);
		while (!work.isEmpty()) {
			for (String identifier : identifiers(work.pop().text())) {
				for (Unit definition : definitions.getOrDefault(identifier, List.of())) {
					if (kept.add(definition)) {
						work.add(definition);
					}
				}
			}
		}
		StringBuilder out = new StringBuilder(body.length());
		for (Unit unit : units) {
			if (kept.contains(unit)) {
				out.append(unit.text());
			}
		}
		return out.toString();
	}

	private static List<Unit> units(String body) {
		List<Unit> units = new ArrayList<>();
		String[] lines = body.split("\n", -1);
		StringBuilder plain = new StringBuilder();
		for (int i = 0; i < lines.length; i++) {
			String line = lines[i];
			String ending = (i < lines.length - 1) ? "\n" : "";
			Matcher function = FUNCTION.matcher(line);
			Matcher constant = CONSTANT.matcher(line);
			String name = null;
			StringBuilder text = new StringBuilder(line).append(ending);
			if (function.matches()) {
				name = function.group(1);
				int end = i;
				if (!line.stripTrailing().endsWith(" end")) {
					end++;
					while (end < lines.length && !lines[end].stripTrailing().equals("end")) {
						end++;
					}
					if (end == lines.length) {
						throw new IllegalStateException(
								"EchoMQ script: top-level function '" + name + "' has no line 'end' that closes it");
					}
				}
				for (int j = i + 1; j <= end; j++) {
					text.append(lines[j]).append((j < lines.length - 1) ? "\n" : "");
				}
				i = end;
			}
			else if (constant.matches()) {
				name = constant.group(1);
			}
			if (name == null) {
				plain.append(text);
				continue;
			}
			if (!plain.isEmpty()) {
				units.add(new Unit(null, plain.toString()));
				plain.setLength(0);
			}
			units.add(new Unit(name, text.toString()));
		}
		if (!plain.isEmpty()) {
			units.add(new Unit(null, plain.toString()));
		}
		return units;
	}

	/**
	 * The names in a piece of Lua code, comments and quoted strings left out.
	 */
	private static Set<String> identifiers(String code) {
		Set<String> names = new HashSet<>();
		int i = 0;
		int n = code.length();
		while (i < n) {
			char c = code.charAt(i);
			if (c == '-' && i + 1 < n && code.charAt(i + 1) == '-') {
				int end = code.indexOf('\n', i);
				i = (end < 0) ? n : end + 1;
			}
			else if (c == '\'' || c == '"') {
				i++;
				while (i < n && code.charAt(i) != c && code.charAt(i) != '\n') {
					i += (code.charAt(i) == '\\') ? 2 : 1;
				}
				i++;
			}
			else if (Character.isLetter(c) || c == '_') {
				int start = i;
				while (i < n && (Character.isLetterOrDigit(code.charAt(i)) || code.charAt(i) == '_')) {
					i++;
				}
				names.add(code.substring(start, i));
			}
			else if (Character.isDigit(c)) {
				while (i < n && (Character.isLetterOrDigit(code.charAt(i)) || code.charAt(i) == '.')) {
					i++;
				}
			}
			else {
				i++;
			}
		}
		return names;
	}

	private static @Nullable String read(String path) {
		try (InputStream in = Script.class.getClassLoader().getResourceAsStream(path)) {
			return (in != null) ? new String(in.readAllBytes(), StandardCharsets.UTF_8) : null;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read EchoMQ script '" + path + "'", ex);
		}
	}

	private static String sha1(String body) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-1");
			return HexFormat.of().formatHex(digest.digest(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A top-level piece of an expanded script: a definition of {@code name}, or other
	 * text ({@code name} null). Compared by identity: two pieces may hold the same text.
	 */
	private static final class Unit {

		private final @Nullable String name;

		private final String text;

		Unit(@Nullable String name, String text) {
			this.name = name;
			this.text = text;
		}

		@Nullable String name() {
			return this.name;
		}

		String text() {
			return this.text;
		}

	}

	@Override
	public String toString() {
		return "Script[" + this.name + " " + this.sha + "]";
	}

}
