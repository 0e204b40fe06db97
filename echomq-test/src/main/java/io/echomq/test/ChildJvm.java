package io.echomq.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a {@code main} class in a JVM of its own, on this JVM's class path, so that a
 * test (or a benchmark) can run a second application against the same server: a worker to
 * kill, a second node of a cluster-wide limit. The child is small (256 MB heap, serial
 * GC, C1 only) and writes its standard output and error to a log file. Its standard input
 * stays a pipe to this JVM: a child that reads it sees it end when this JVM goes away,
 * and {@link Process#toHandle()}{@code .destroy()} sends {@code SIGTERM} without closing
 * it ({@link Process#destroy()} would).
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class ChildJvm {

	private ChildJvm() {
	}

	/**
	 * Start {@code mainClass} with the given arguments.
	 * @param mainClass the class whose {@code main} runs
	 * @param log the file that receives the child's output
	 * @param args the program arguments
	 * @return the started process
	 * @throws UncheckedIOException if the JVM cannot be started
	 */
	public static Process start(Class<?> mainClass, Path log, List<String> args) {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
				"-cp", System.getProperty("java.class.path"), mainClass.getName()));
		command.addAll(args);
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start a JVM for " + mainClass.getName(), ex);
		}
	}

	/**
	 * In the child: run {@code action} when the parent JVM goes away, seen as the end of
	 * standard input, which a daemon thread reads (and discards) until then.
	 * @param action what to do, e.g. {@code () -> System.exit(1)}
	 */
	public static void onParentExit(Runnable action) {
		Thread watcher = new Thread(() -> {
			try {
				while (System.in.read() != -1) {
					// discard
				}
			}
			catch (IOException ex) {
				// closed
			}
			action.run();
		}, "stdin-watcher");
		watcher.setDaemon(true);
		watcher.start();
	}

}
