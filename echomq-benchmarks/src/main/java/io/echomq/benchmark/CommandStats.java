package io.echomq.benchmark;

import java.util.HashMap;
import java.util.Map;

/**
 * A snapshot of {@code INFO commandstats}: calls and microseconds per command. The server
 * counts the commands a script runs as well as the script call itself.
 *
 * @param calls calls by command name
 * @param usec microseconds by command name
 * @author EchoMQ
 */
record CommandStats(Map<String, Long> calls, Map<String, Long> usec) {

	private static final String PREFIX = "cmdstat_";

	static CommandStats parse(Map<String, String> section) {
		Map<String, Long> calls = new HashMap<>();
		Map<String, Long> usec = new HashMap<>();
		section.forEach((name, value) -> {
			if (!name.startsWith(PREFIX)) {
				return;
			}
			String command = name.substring(PREFIX.length());
			for (String part : value.split(",")) {
				int equals = part.indexOf('=');
				String key = part.substring(0, equals);
				String number = part.substring(equals + 1);
				if (key.equals("calls")) {
					calls.put(command, Long.parseLong(number));
				}
				else if (key.equals("usec")) {
					usec.put(command, Long.parseLong(number));
				}
			}
		});
		return new CommandStats(Map.copyOf(calls), Map.copyOf(usec));
	}

	/**
	 * Return the calls of one command.
	 * @param command e.g. {@code evalsha}
	 * @return the calls
	 */
	long calls(String command) {
		return this.calls.getOrDefault(command, 0L);
	}

	/**
	 * Return the microseconds spent in one command (a script's include its commands).
	 * @param command e.g. {@code evalsha}
	 * @return the microseconds
	 */
	long usec(String command) {
		return this.usec.getOrDefault(command, 0L);
	}

	/**
	 * Return the script calls: {@code EVALSHA} and {@code EVAL}.
	 * @return the calls
	 */
	long scriptCalls() {
		return calls("evalsha") + calls("eval");
	}

	/**
	 * Return the microseconds spent in scripts.
	 * @return the microseconds
	 */
	long scriptUsec() {
		return usec("evalsha") + usec("eval");
	}

	/**
	 * Return every command the server ran, those inside scripts included, but not the
	 * statistics commands of the benchmark itself.
	 * @return the calls
	 */
	long allCalls() {
		long total = 0;
		for (Map.Entry<String, Long> entry : this.calls.entrySet()) {
			if (!isAdmin(entry.getKey())) {
				total += entry.getValue();
			}
		}
		return total;
	}

	/**
	 * Return the difference from an earlier snapshot.
	 * @param before the earlier snapshot
	 * @return this minus before
	 */
	CommandStats minus(CommandStats before) {
		return new CommandStats(subtract(this.calls, before.calls), subtract(this.usec, before.usec));
	}

	private static Map<String, Long> subtract(Map<String, Long> after, Map<String, Long> before) {
		Map<String, Long> result = new HashMap<>();
		after.forEach((name, value) -> result.put(name, value - before.getOrDefault(name, 0L)));
		return Map.copyOf(result);
	}

	static boolean isAdmin(String command) {
		return command.equals("info") || command.startsWith("config") || command.equals("flushall")
				|| command.startsWith("memory") || command.equals("ping") || command.equals("hello")
				|| command.startsWith("client");
	}

}
