package io.echomq.core.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests of the protocol another language's client reads: the manifest the build packages,
 * and {@code docs/protocol.md}, whose script reference is the scripts' headers, so that a
 * header and the document cannot disagree. {@code -Dprotocol.update=true} rewrites the
 * reference from the headers.
 *
 * @author EchoMQ
 */
class ProtocolManifestTests {

	private static final Path SCRIPTS = Path.of("src/main/resources/io/echomq/core/scripts");

	private static final Path DOCUMENT = Path.of("../docs/protocol.md");

	private static final String BEGIN = "<!-- protocol:scripts (generated from the script headers) -->";

	private static final String END = "<!-- /protocol:scripts -->";

	private static final boolean UPDATE = Boolean.getBoolean("protocol.update");

	private static final Pattern ERROR = Pattern.compile("EMQ[A-Z]+");

	@Test
	void manifestNamesEveryScriptWithTheShaTheEngineSendsAndItsHeader() {
		List<String> names = ProtocolManifest.names(SCRIPTS);
		assertThat(names).contains("enqueue", "claim", "complete", "complete_all", "retry", "extend", "release",
				"cancel", "flow_apply");
		JsonNode manifest = JsonMapper.builder().build().readTree(ProtocolManifest.json(names));
		assertThat(manifest.get("protocol").asInt()).isEqualTo(StoredFormat.CURRENT);
		assertThat(manifest.get("scripts")).hasSize(names.size());
		for (JsonNode script : manifest.get("scripts")) {
			String name = script.get("name").asString();
			assertThat(script.get("sha1").asString()).as(name).isEqualTo(Script.load(name).sha());
			assertThat(script.get("keys")).as(name).isNotEmpty();
			assertThat(script.get("argv")).as(name).isNotEmpty();
			assertThat(script.get("returns").asString()).as(name).isNotBlank();
		}
		JsonNode retry = manifest.get("scripts")
			.valueStream()
			.filter((script) -> script.get("name").asString().equals("retry"))
			.findFirst()
			.orElseThrow();
		assertThat(retry.get("keys").get(0).get("at").asString()).isEqualTo("KEYS[1]");
		assertThat(retry.get("keys").get(0).get("text").asString()).isEqualTo("emq:{q}:active ZSET");
		assertThat(retry.get("argv").get(1).get("text").asString()).isEqualTo("token");
	}

	@Test
	void headerWithoutKeysIsRefusedNamingTheScript() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ScriptHeader.parse("broken", "-- broken: does things\n-- ARGV[1]  id\nreturn 1\n"))
			.withMessageContaining("'broken'")
			.withMessageContaining("KEYS");
	}

	@Test
	void continuationLinesJoinTheirEntryAndNotesKeepTheirPlace() {
		ScriptHeader header = ScriptHeader.parse("x", """
				-- x: what it does.
				--
				-- KEYS[1]  emq:{q}:pending ZSET, a long
				--          description
				-- with a lane:
				-- KEYS[2]  emq:{q}:lanes ZSET
				-- ARGV[1]  id
				-- returns  1
				--- @include "clock"
				-- KEYS[9]  not the header any more
				""");
		assertThat(header.summary()).isEqualTo("x: what it does.");
		assertThat(header.entries()).extracting(ScriptHeader.Entry::label)
			.containsExactly("KEYS[1]", "", "KEYS[2]", "ARGV[1]", "returns");
		assertThat(header.entries().get(0).text()).isEqualTo("emq:{q}:pending ZSET, a long description");
	}

	@Test
	void documentShowsEveryScriptAsItsHeaderSaysAndEveryErrorCode() throws IOException {
		String document = Files.readString(DOCUMENT, StandardCharsets.UTF_8);
		int begin = document.indexOf(BEGIN);
		int end = document.indexOf(END);
		assertThat(begin).as("docs/protocol.md marks its generated part").isNotNegative();
		assertThat(end).isGreaterThan(begin);
		String generated = reference(ProtocolManifest.names(SCRIPTS));
		String written = document.substring(begin + BEGIN.length(), end);
		if (UPDATE && !written.equals(generated)) {
			Files.writeString(DOCUMENT,
					document.substring(0, begin + BEGIN.length()) + generated + document.substring(end),
					StandardCharsets.UTF_8);
			written = generated;
		}
		assertThat(written)
			.as("docs/protocol.md's script reference, against the script headers "
					+ "(-Dprotocol.update=true rewrites it)")
			.isEqualTo(generated);
		Set<String> raised = new TreeSet<>();
		try (var files = Files.walk(SCRIPTS)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".lua")).toList()) {
				Matcher matcher = ERROR.matcher(Files.readString(file));
				while (matcher.find()) {
					raised.add(matcher.group());
				}
			}
		}
		String errors = document.substring(document.indexOf("## Errors"), begin);
		assertThat(raised).isNotEmpty().allSatisfy((code) -> assertThat(errors).contains("`" + code + "`"));
	}

	static String reference(List<String> names) {
		StringBuilder out = new StringBuilder("\n");
		for (String name : names) {
			ScriptHeader header = ProtocolManifest.header(name);
			String summary = header.summary().split("\n\n", 2)[0].replaceAll("\\s*\n\\s*", " ");
			out.append("\n### `").append(name).append("`\n\n").append(summary).append("\n\n| | |\n| --- | --- |\n");
			for (ScriptHeader.Entry entry : header.entries()) {
				String label = entry.label().isEmpty() ? "" : "`" + entry.label() + "`";
				out.append("| ").append(label).append(" | ").append(cell(entry.text())).append(" |\n");
			}
		}
		return out.append('\n').toString();
	}

	private static String cell(String text) {
		return text.replace("|", "\\|");
	}

}
