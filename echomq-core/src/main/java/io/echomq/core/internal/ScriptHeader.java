package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The header of a transition script: the comment block its source starts with, before the
 * first include or statement. Its first part says what the script does; from the first
 * {@code KEYS} line on it is the script's interface, one entry per key, argument,
 * optional group and reply, which {@code docs/protocol.md} and the protocol manifest show
 * as they are written here.
 *
 * @param name the script name
 * @param summary the text before the interface, comment markers removed
 * @param entries the interface, in source order
 * @author EchoMQ
 */
public record ScriptHeader(String name, String summary, List<Entry> entries) {

	private static final Pattern ENTRY = Pattern.compile(
			"^-- ((?:KEYS|ARGV)\\[[^\\]]*\\](?:, (?:KEYS|ARGV)\\[[^\\]]*\\])*|returns|then|\\[[a-z_]+\\])\\s+(\\S.*)$");

	private static final Pattern CONTINUATION = Pattern.compile("^--\\s{2,}(\\S.*)$");

	/**
	 * Read the header of a script's source.
	 * @param name the script name, for error messages
	 * @param source the script's source, includes not expanded
	 * @return the header
	 * @throws IllegalStateException if the header names no key, no argument or no reply
	 */
	public static ScriptHeader parse(String name, String source) {
		StringBuilder summary = new StringBuilder();
		List<Entry> entries = new ArrayList<>();
		for (String line : source.split("\n", -1)) {
			if (!line.startsWith("--") || line.startsWith("---")) {
				break;
			}
			Matcher entry = ENTRY.matcher(line);
			Matcher continuation = CONTINUATION.matcher(line);
			if (entry.matches() && (entry.group(1).startsWith("KEYS") || !entries.isEmpty())) {
				entries.add(new Entry(entry.group(1), squeeze(entry.group(2))));
			}
			else if (entries.isEmpty()) {
				summary.append(line.replaceFirst("^-- ?", "")).append('\n');
			}
			else if (continuation.matches()) {
				Entry last = entries.remove(entries.size() - 1);
				entries.add(new Entry(last.label(), last.text() + " " + squeeze(continuation.group(1))));
			}
			else {
				entries.add(new Entry("", squeeze(line.replaceFirst("^-- ?", ""))));
			}
		}
		ScriptHeader header = new ScriptHeader(name, summary.toString().strip(), List.copyOf(entries));
		for (String kind : List.of("KEYS", "ARGV", "returns")) {
			if (header.entries(kind).isEmpty()) {
				throw new IllegalStateException("The header of script '" + name + "' names no " + kind
						+ " entry: a script's header names its keys, arguments and reply");
			}
		}
		return header;
	}

	private static String squeeze(String text) {
		return text.strip().replaceAll("\\s+", " ");
	}

	/**
	 * Return the entries of one kind.
	 * @param kind {@code KEYS}, {@code ARGV}, {@code returns}, an optional group such as
	 * {@code [events]}, or the empty string for the notes between entries
	 * @return the entries whose label starts with it
	 */
	public List<Entry> entries(String kind) {
		return this.entries.stream()
			.filter((entry) -> kind.isEmpty() ? entry.label().isEmpty()
					: !entry.label().isEmpty() && entry.label().startsWith(kind))
			.toList();
	}

	/**
	 * One line of a script's interface, with its continuation lines joined.
	 *
	 * @param label {@code KEYS[1]}, {@code ARGV[2..]}, {@code returns}, {@code then},
	 * {@code [events]} (an optional group), or empty for a note
	 * @param text what it is
	 */
	public record Entry(String label, String text) {

	}

}
