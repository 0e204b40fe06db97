package io.echomq.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The least-privilege ACL EchoMQ documents ({@code io/echomq/core/echomq.acl}) grants
 * every command a Lua script calls, names the key pattern and no admin command, and is
 * the line docs/security.md prints.
 *
 * @author EchoMQ
 */
class DocumentedAclTests {

	private static final Pattern CALL = Pattern
		.compile("redis\\.p?call\\(\\s*'([A-Za-z|]+)'(?:\\s*,\\s*'([A-Za-z]+)')?");

	private static final Pattern ANY_CALL = Pattern.compile("redis\\.p?call\\(");

	@Test
	void aclShouldGrantEveryCommandTheScriptsCall() throws IOException {
		Set<String> granted = granted(aclLine());
		Map<String, Set<String>> missing = new TreeMap<>();
		Resource[] scripts = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:io/echomq/core/scripts/**/*.lua");
		assertThat(scripts).hasSizeGreaterThan(20);
		int calls = 0;
		for (Resource script : scripts) {
			String source = script.getContentAsString(StandardCharsets.UTF_8);
			Matcher literal = CALL.matcher(source);
			int literals = 0;
			while (literal.find()) {
				literals++;
				String command = literal.group(1).toLowerCase(Locale.ROOT);
				String sub = (literal.group(2) != null) ? command + "|" + literal.group(2).toLowerCase(Locale.ROOT)
						: command;
				if (!granted.contains(command) && !granted.contains(sub)) {
					missing.computeIfAbsent(command, (key) -> new TreeSet<>()).add(script.getFilename());
				}
			}
			long all = ANY_CALL.matcher(source).results().count();
			assertThat(literals)
				.as("%s: every redis.call names its command as a literal, so that it can be checked",
						script.getFilename())
				.isEqualTo(all);
			calls += literals;
		}
		assertThat(calls).isGreaterThan(100);
		assertThat(missing).as("commands the scripts call that the documented ACL does not grant").isEmpty();
	}

	@Test
	void aclShouldGrantNoAdminCommandAndOnlyEchoMqKeys() throws IOException {
		String line = aclLine();
		assertThat(line).startsWith("user echomq on >").contains(" resetkeys ~emq:* resetchannels &emq:* -@all ");
		assertThat(granted(line))
			.doesNotContain("keys", "info", "config", "config|get", "flushall", "flushdb", "debug", "client",
					"shutdown", "script", "monitor", "acl", "psubscribe")
			.allSatisfy((command) -> assertThat(command).doesNotStartWith("@"));
	}

	@Test
	void securityDocsShouldPrintTheAcl() throws IOException {
		Path docs = Path.of("..", "docs", "security.md");
		assertThat(Files.readString(docs)).contains(aclLine());
	}

	static String aclLine() throws IOException {
		try (InputStream in = DocumentedAclTests.class.getResourceAsStream("/io/echomq/core/echomq.acl")) {
			assertThat(in).as("io/echomq/core/echomq.acl").isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
		}
	}

	private static Set<String> granted(String line) {
		return Arrays.stream(line.split(" "))
			.filter((rule) -> rule.startsWith("+"))
			.map((rule) -> rule.substring(1).toLowerCase(Locale.ROOT))
			.collect(Collectors.toCollection(TreeSet::new));
	}

}
