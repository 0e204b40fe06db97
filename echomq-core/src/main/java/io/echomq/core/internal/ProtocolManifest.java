package io.echomq.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The scripts as another language's client loads them: each script's body exactly as the
 * engine sends it (includes expanded), with a manifest naming the protocol version and,
 * per script, its SHA-1 and the {@code KEYS}, {@code ARGV} and reply of its header. The
 * build writes them ({@link #main(String[])}) and packages them as the
 * {@code echomq-core} artifact with classifier {@code protocol}; see
 * {@code docs/protocol.md}.
 *
 * @author EchoMQ
 */
public final class ProtocolManifest {

	/**
	 * The protocol version: the stored format the scripts read and write. A release that
	 * keeps it may add scripts, and optional trailing keys and arguments to a script;
	 * anything else is a new format.
	 */
	public static final int VERSION = StoredFormat.CURRENT;

	private static final String LOCATION = "io/echomq/core/scripts/";

	private ProtocolManifest() {
	}

	/**
	 * Write the expanded scripts and {@code manifest.json}.
	 * @param args the directory of the script sources, then the directory to write to
	 * @throws IOException if a file cannot be read or written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			throw new IllegalArgumentException("Usage: ProtocolManifest <script source directory> <output directory>");
		}
		Path target = Path.of(args[1]);
		Files.createDirectories(target.resolve("scripts"));
		List<String> names = names(Path.of(args[0]));
		for (String name : names) {
			Files.writeString(target.resolve("scripts/" + name + ".lua"), Script.load(name).body());
		}
		Files.writeString(target.resolve("manifest.json"), json(names));
	}

	/**
	 * Return the names of the scripts in a directory of script sources (not its
	 * includes).
	 * @param directory the directory
	 * @return the names, sorted
	 */
	public static List<String> names(Path directory) {
		try (Stream<Path> files = Files.list(directory)) {
			return files.map((file) -> file.getFileName().toString())
				.filter((file) -> file.endsWith(".lua"))
				.map((file) -> file.substring(0, file.length() - ".lua".length()))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Read the header of a script shipped with EchoMQ.
	 * @param name the script name
	 * @return its header
	 */
	public static ScriptHeader header(String name) {
		try (InputStream in = ProtocolManifest.class.getClassLoader().getResourceAsStream(LOCATION + name + ".lua")) {
			if (in == null) {
				throw new IllegalStateException("EchoMQ script '" + LOCATION + name + ".lua' is not on the class path");
			}
			return ScriptHeader.parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the manifest of the named scripts.
	 * @param names the script names
	 * @return the manifest, as JSON
	 */
	public static String json(List<String> names) {
		List<String> scripts = new ArrayList<>();
		for (String name : names) {
			Script script = Script.load(name);
			ScriptHeader header = header(name);
			scripts.add("    {\"name\": " + quote(name) + ", \"file\": " + quote("scripts/" + name + ".lua")
					+ ", \"sha1\": " + quote(script.sha()) + ",\n      \"keys\": " + entries(header.entries("KEYS"))
					+ ",\n      \"argv\": " + entries(header.entries("ARGV")) + ",\n      \"returns\": "
					+ quote(String.join(" ", header.entries("returns").stream().map(ScriptHeader.Entry::text).toList()))
					+ ",\n      \"interface\": " + entries(header.entries()) + "}");
		}
		return "{\n  \"protocol\": " + VERSION + ",\n  \"format\": " + StoredFormat.CURRENT + ",\n  \"scripts\": [\n"
				+ String.join(",\n", scripts) + "\n  ]\n}\n";
	}

	private static String entries(List<ScriptHeader.Entry> entries) {
		return "[" + String.join(", ",
				entries.stream()
					.map((entry) -> "{\"at\": " + quote(entry.label()) + ", \"text\": " + quote(entry.text()) + "}")
					.toList())
				+ "]";
	}

	static String quote(String text) {
		StringBuilder out = new StringBuilder(text.length() + 2).append('"');
		for (char c : text.toCharArray()) {
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\t' -> out.append("\\t");
				case '\r' -> out.append("\\r");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.append('"').toString();
	}

}
