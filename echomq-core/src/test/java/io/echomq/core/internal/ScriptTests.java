package io.echomq.core.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link Script}: the include lines of the shipped scripts, and how they are
 * expanded. That the server names the expanded body by the same SHA is checked on real
 * servers ({@code TransitionsTests}).
 *
 * @author EchoMQ
 */
class ScriptTests {

	private static final Path SOURCES = Path.of("src/main/resources/io/echomq/core/scripts");

	private static final Pattern KEYS = Pattern.compile("\\bKEYS\\b");

	private static final Pattern KEY_AT = Pattern.compile("KEYS\\[(\\d+)\\]");

	private static final Pattern KEY_TABLE = Pattern.compile("(?m)^local K = \\{[^}]*\\}$");

	@Test
	void everyShippedScriptShouldExpandFullyAndNameItsKeysAndArguments() throws IOException {
		List<String> names = luaFiles(SOURCES).stream().map(ScriptTests::baseName).toList();
		assertThat(names).contains("enqueue", "claim", "complete", "retry", "extend", "release", "reap", "promote",
				"replay", "purge", "quarantine");
		for (String name : names) {
			Script script = Script.load(name);
			assertThat(script.body()).as(name).doesNotContain("@include");
			String header = header(Files.readString(SOURCES.resolve(name + ".lua")));
			assertThat(header).as(name + " header").contains("-- KEYS[").contains("-- ARGV[").contains("-- returns");
		}
	}

	@Test
	void everyIncludeShouldBeUsedAndEveryScriptShouldHoldOneCopyOfWhatItUses() throws IOException {
		List<String> pieces = luaFiles(SOURCES.resolve("includes")).stream().map(ScriptTests::baseName).toList();
		assertThat(pieces).contains("clock", "int", "row", "fence", "keys", "wake", "pending");
		Map<String, Integer> uses = new HashMap<>();
		for (Path file : luaFiles(SOURCES)) {
			String source = Files.readString(file);
			String body = Script.load(baseName(file)).body();
			for (String piece : pieces) {
				int kept = 0;
				for (String definition : definitions(Files.readString(SOURCES.resolve("includes/" + piece + ".lua")))) {
					int copies = count(body, definition);
					assertThat(copies).as(baseName(file) + " copies of " + definition).isLessThanOrEqualTo(1);
					kept += copies;
				}
				if (source.contains("--- @include \"" + piece + "\"")) {
					assertThat(kept).as(baseName(file) + " uses " + piece).isPositive();
				}
				uses.merge(piece, kept, Integer::sum);
			}
			// no piece is copied into a script by hand
			assertThat(source).as(baseName(file))
				.doesNotContain("redis.call('TIME')")
				.doesNotContain("redis.call('LPUSH'")
				.doesNotContain("'TOKEN_MISMATCH'");
		}
		assertThat(uses).allSatisfy((piece, count) -> assertThat(count).as(piece).isPositive());
	}

	@Test
	void everyFunctionOfAnIncludeShouldBeKeptBySomeScript() throws IOException {
		StringBuilder bodies = new StringBuilder();
		for (Path file : luaFiles(SOURCES)) {
			bodies.append(Script.load(baseName(file)).body());
		}
		for (Path piece : luaFiles(SOURCES.resolve("includes"))) {
			assertThat(definitions(Files.readString(piece)))
				.allSatisfy((definition) -> assertThat(bodies.toString()).as(piece.getFileName().toString())
					.contains(definition));
		}
	}

	@Test
	void noIncludeShouldReadKeys() throws IOException {
		for (Path piece : luaFiles(SOURCES.resolve("includes"))) {
			assertThat(KEYS.matcher(code(Files.readString(piece))).find()).as(piece.getFileName() + " reads KEYS")
				.isFalse();
		}
	}

	@Test
	void everyScriptShouldNameItsFixedKeysOnceInItsKeyTable() throws IOException {
		for (Path file : luaFiles(SOURCES)) {
			String name = baseName(file);
			String code = code(Files.readString(file));
			Matcher table = KEY_TABLE.matcher(code);
			List<String> named = new ArrayList<>();
			String rest = code;
			if (table.find()) {
				Matcher at = KEY_AT.matcher(table.group());
				while (at.find()) {
					named.add(at.group(1));
				}
				rest = code.substring(0, table.start()) + code.substring(table.end());
			}
			assertThat(named).as(name + " key table").doesNotHaveDuplicates();
			assertThat(KEY_AT.matcher(rest).results().map(MatchResult::group)).as(name + " outside its key table")
				.isEmpty();
		}
	}

	@Test
	void pruneShouldKeepWhatTheScriptUsesDirectlyOrThroughKeptFunctions() {
		String body = """
				local LIMIT = 16
				local UNUSED = 'x'
				local TABLE = {'a', 'b'}
				local function helper(x)
				  return x + LIMIT
				end
				local function used(x)
				  return helper(x)
				end
				local function unused(x)
				  return helper(x) + #TABLE
				end
				local function one() return 1 end
				local function mentioned() return 2 end
				local function quoted() return 3 end
				-- mentioned() in a comment keeps nothing
				local computed = one()
				return {used(1), computed, 'quoted()', "quoted"}
				""";
		assertThat(Script.prune(body)).isEqualTo("""
				local LIMIT = 16
				local function helper(x)
				  return x + LIMIT
				end
				local function used(x)
				  return helper(x)
				end
				local function one() return 1 end
				-- mentioned() in a comment keeps nothing
				local computed = one()
				return {used(1), computed, 'quoted()', "quoted"}
				""");
	}

	@Test
	void pruneShouldKeepARecursiveFunctionOnlyWhenSomethingElseCallsIt() {
		String body = "local function f(n)\n  if n > 0 then\n    return f(n - 1)\n  end\n  return 0\nend\n";
		assertThat(Script.prune(body + "return 1\n")).isEqualTo("return 1\n");
		assertThat(Script.prune(body + "return f(2)\n")).isEqualTo(body + "return f(2)\n");
	}

	@Test
	void pruneShouldFailOnATopLevelFunctionWithoutItsEnd() {
		assertThatIllegalStateException().isThrownBy(() -> Script.prune("local function f()\n  return 1\n  end\n"))
			.withMessageContaining("'f'");
	}

	@Test
	void enqueueShouldNotDefineWhatOnlyOtherScriptsUse() {
		String body = Script.load("enqueue").body();
		assertThat(body).contains("local function unique_arg(", "local function to_ring(")
			.doesNotContain("local function unique_release(", "local function from_lane(", "local function wake_n(",
					"local function lane_args(");
	}

	@Test
	void includesShouldExpandOnceInPlaceAndNested() {
		Map<String, String> pieces = Map.of("a", "local function a() end\n", "b",
				"--- @include \"a\"\nlocal function b() return a() end\n");
		String expanded = Script.expand("s", "-- s\n--- @include \"b\"\n--- @include \"a\"\nreturn b()\n", pieces::get);
		assertThat(expanded).isEqualTo("-- s\nlocal function a() end\nlocal function b() return a() end\nreturn b()\n");
	}

	@Test
	void missingMalformedOrCircularIncludesShouldFailNamingThem() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Script.expand("s", "--- @include \"nope\"\n", (piece) -> null))
			.withMessageContaining("'s' includes 'nope'")
			.withMessageContaining("includes/nope.lua");
		assertThatIllegalStateException().isThrownBy(() -> Script.expand("s", "-- @include 'a'\n", (piece) -> "x\n"))
			.withMessageContaining("malformed include line '-- @include 'a''");
		Map<String, String> circular = Map.of("a", "--- @include \"b\"\n", "b", "--- @include \"a\"\n");
		assertThatIllegalStateException().isThrownBy(() -> Script.expand("s", "--- @include \"a\"\n", circular::get))
			.withMessageContaining("circular include of 'a'");
		assertThatIllegalStateException().isThrownBy(() -> Script.load("no-such-script"))
			.withMessageContaining("no-such-script.lua' is not on the class path");
	}

	@Test
	void shaShouldBeTheSha1OfTheExpandedBody() {
		Script script = Script.load("claim");
		assertThat(script.sha()).isEqualTo(Script.of("claim", script.body()).sha()).hasSize(40);
		assertThat(Script.of("x", "return 1").sha()).isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
	}

	private static List<Path> luaFiles(Path directory) throws IOException {
		try (Stream<Path> files = Files.list(directory)) {
			return files.filter((file) -> file.toString().endsWith(".lua")).sorted().toList();
		}
	}

	private static String baseName(Path file) {
		String name = file.getFileName().toString();
		return name.substring(0, name.length() - ".lua".length());
	}

	private static String header(String source) {
		StringBuilder header = new StringBuilder();
		for (String line : source.split("\n")) {
			if (!line.startsWith("--")) {
				break;
			}
			header.append(line).append('\n');
		}
		return header.toString();
	}

	// the Lua code without its comments and string literals
	private static String code(String source) {
		return source.lines()
			.map((line) -> line.replaceAll("--.*$", "").replaceAll("'(?:[^'\\\\]|\\\\.)*'", "''"))
			.collect(Collectors.joining("\n"));
	}

	private static List<String> definitions(String piece) {
		return piece.lines()
			.filter((line) -> line.startsWith("local function ") || line.matches("^local [A-Z_]+ = .*"))
			.toList();
	}

	private static int count(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

}
