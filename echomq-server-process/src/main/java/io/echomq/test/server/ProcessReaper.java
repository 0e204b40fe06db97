package io.echomq.test.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kills every server process still running when the JVM exits, so that none outlives it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class ProcessReaper {

	private static final Set<RedisServerProcess> running = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ProcessReaper::reapAll, "echomq-server-reaper"));
	}

	private ProcessReaper() {
	}

	static void register(RedisServerProcess process) {
		running.add(process);
	}

	static void unregister(RedisServerProcess process) {
		running.remove(process);
	}

	private static void reapAll() {
		for (RedisServerProcess process : running) {
			process.reap();
		}
	}

}
