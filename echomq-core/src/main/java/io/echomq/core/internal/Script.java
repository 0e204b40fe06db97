package io.echomq.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.HexFormat;
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
 * script, at its first mention). The expanded text is the {@link #body() body}: what the
 * server runs, and what the {@link #sha() SHA} names.
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
		return of(name, expand(name, source, (piece) -> read(LOCATION + INCLUDES + piece + ".lua")));
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

	@Override
	public String toString() {
		return "Script[" + this.name + " " + this.sha + "]";
	}

}
