package io.echomq.devservices;

import java.time.Duration;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerOptions;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/**
 * The development server of this JVM: started on first need, reused by later applications
 * in the same JVM (a DevTools restart keeps its data), and stopped when the JVM exits,
 * after Spring Boot's shutdown hook closed the application contexts.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
final class DevServer {

	/** Longer than a context takes to drain its listeners and close. */
	static final Duration EXIT_GRACE = Duration.ofSeconds(30);

	private static final Object lock = new Object();

	private static @Nullable RedisServerProcess process;

	private static boolean shutdownHandlerAdded;

	private DevServer() {
	}

	/**
	 * Return the running development server, starting one if there is none.
	 * @param springShutdownHook whether Spring Boot's shutdown hook will run and stop the
	 * server after the contexts closed; without it the JVM's reaper kills the server at
	 * once on exit
	 * @return the server and whether this call started it
	 */
	static Obtained obtain(boolean springShutdownHook) {
		synchronized (lock) {
			RedisServerProcess current = process;
			if (current != null && current.isAlive()) {
				return new Obtained(current, false);
			}
			if (current != null) {
				current.close();
			}
			RedisServerProcess started = RedisServerProcess.start(ServerBinary.locate(), ServerOptions.defaults());
			// stopped by the handler below once the contexts closed, by the reaper
			// otherwise
			started.setExitGrace(springShutdownHook ? EXIT_GRACE : Duration.ZERO);
			process = started;
			if (!shutdownHandlerAdded) {
				SpringApplication.getShutdownHandlers().add(DevServer::stop);
				shutdownHandlerAdded = true;
			}
			return new Obtained(started, true);
		}
	}

	/**
	 * Shut the development server down, if one runs.
	 */
	static void stop() {
		synchronized (lock) {
			RedisServerProcess current = process;
			if (current != null) {
				process = null;
				try {
					current.stop();
				}
				finally {
					current.close();
				}
			}
		}
	}

	/**
	 * A development server and whether it was just started.
	 *
	 * @param process the server
	 * @param started whether this call started it
	 */
	record Obtained(RedisServerProcess process, boolean started) {

	}

}
