package com.example.readme;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```java} block of the README and of {@code docs/*.md} is a region of a
 * source file this module compiles: the line before the block names it,
 * {@code <!-- snippet: readme-app/src/.../Foo.java -->} (the file after its package line;
 * any module's {@code src} folder may be named) or
 * {@code <!-- snippet: readme-app/src/.../Foo.java#name -->} (the lines between
 * {@code // tag::name[]} and {@code // end::name[]}). A block without a marker, a marker
 * naming a missing file or tag, and a block that differs from its source fail, naming the
 * Markdown file, the line and the snippet. {@code -Ddocs.snippets.update=true} rewrites
 * the blocks from their sources instead.
 *
 * @author EchoMQ
 */
class DocsSnippetsTests {

	private static final Pattern MARKER = Pattern.compile("<!-- snippet: ([^#\\s]+)(?:#([\\w-]+))? -->");

	private static final Pattern TAG = Pattern.compile("^\\s*// (?:tag|end)::[\\w-]+\\[]\\s*$");

	private static final boolean UPDATE = Boolean.getBoolean("docs.snippets.update");

	private final Path root = findRoot();

	@Test
	void everyJavaBlockMatchesItsCompiledSource() throws IOException {
		List<Path> pages = pages();
		assertThat(pages).as("README.md and docs/*.md under %s", this.root).hasSizeGreaterThan(5);
		List<String> problems = new ArrayList<>();
		int blocks = 0;
		for (Path page : pages) {
			blocks += check(page, problems);
		}
		assertThat(blocks).as("java blocks checked").isGreaterThan(10);
		assertThat(problems).as("snippets that drifted from their sources").isEmpty();
	}

	private int check(Path page, List<String> problems) throws IOException {
		List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
		List<String> rewritten = new ArrayList<>();
		String name = this.root.relativize(page).toString();
		int blocks = 0;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			rewritten.add(line);
			if (!line.strip().equals("```java")) {
				continue;
			}
			blocks++;
			int end = i + 1;
			while (end < lines.size() && !lines.get(end).strip().equals("```")) {
				end++;
			}
			List<String> block = lines.subList(i + 1, Math.min(end, lines.size()));
			String where = name + ":" + (i + 1);
			Matcher marker = MARKER.matcher((i > 0) ? lines.get(i - 1).strip() : "");
			List<String> expected = null;
			if (!marker.matches()) {
				problems.add(where + ": a ```java block without a <!-- snippet: file#tag --> line above it");
			}
			else {
				String snippet = marker.group(1) + ((marker.group(2) != null) ? "#" + marker.group(2) : "");
				try {
					expected = region(marker.group(1), marker.group(2));
					if (!expected.equals(block) && !UPDATE) {
						problems.add(where + ": snippet " + snippet + " differs from its source; expected:\n"
								+ String.join("\n", expected));
					}
				}
				catch (IllegalStateException ex) {
					problems.add(where + ": snippet " + snippet + ": " + ex.getMessage());
				}
			}
			rewritten.addAll((expected != null) ? expected : block);
			if (end < lines.size()) {
				rewritten.add(lines.get(end));
			}
			i = end;
		}
		if (UPDATE && !rewritten.equals(lines)) {
			Files.writeString(page, String.join("\n", rewritten) + "\n", StandardCharsets.UTF_8);
		}
		return blocks;
	}

	private List<String> region(String file, String tag) throws IOException {
		Path source = this.root.resolve(file).normalize();
		if (!source.startsWith(this.root) || !file.contains("/src/") || !file.endsWith(".java")
				|| !Files.isRegularFile(source)) {
			throw new IllegalStateException("no compiled source " + file + " in a module's src folder");
		}
		List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
		List<String> region = new ArrayList<>();
		if (tag == null) {
			boolean pastPackage = false;
			for (String line : lines) {
				if (pastPackage && (!region.isEmpty() || !line.isBlank())) {
					region.add(line);
				}
				pastPackage |= line.startsWith("package ");
			}
		}
		else {
			boolean inside = false;
			boolean found = false;
			for (String line : lines) {
				if (line.strip().equals("// tag::" + tag + "[]")) {
					inside = true;
					found = true;
				}
				else if (line.strip().equals("// end::" + tag + "[]")) {
					inside = false;
				}
				else if (inside) {
					region.add(line);
				}
			}
			if (!found) {
				throw new IllegalStateException("no // tag::" + tag + "[] in " + file);
			}
		}
		region.removeIf((line) -> TAG.matcher(line).matches());
		while (!region.isEmpty() && region.get(region.size() - 1).isBlank()) {
			region.remove(region.size() - 1);
		}
		return dedent(region);
	}

	private static List<String> dedent(List<String> lines) {
		int indent = lines.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length())
			.min()
			.orElse(0);
		return lines.stream().map((line) -> line.isBlank() ? "" : line.substring(indent).stripTrailing()).toList();
	}

	private List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>();
		pages.add(this.root.resolve("README.md"));
		try (Stream<Path> docs = Files.list(this.root.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

	private static Path findRoot() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !Files.isDirectory(dir.resolve("readme-app"))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("the checkout holding readme-app, above the working directory").isNotNull();
		return dir;
	}

}
