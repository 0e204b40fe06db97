package io.echomq.benchmark;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU the JIT compiler threads of this JVM used: the {@code C1}/{@code C2}
 * {@code CompilerThread}s' time in {@code /proc/self/task/<tid>/stat} on Linux (the
 * compiler threads are hidden from {@code ThreadMXBean}), else the JVM's total
 * compilation time ({@link CompilationMXBean}, wall time of compilations, an upper
 * bound). A warm-up is over when this stays low while the workload runs.
 *
 * @author EchoMQ
 */
final class JitProbe {

	private static final double TICKS_PER_SECOND = 100;

	private static final Path TASKS = Path.of("/proc/self/task");

	private final long startNanos = System.nanoTime();

	private final double startSeconds = compilerSeconds();

	/**
	 * Return the compiler threads' CPU since this probe was made, in % of one core.
	 * @return the share of a core
	 */
	double percentSinceStart() {
		long elapsed = Math.max(1, System.nanoTime() - this.startNanos);
		return 100.0 * (compilerSeconds() - this.startSeconds) / (elapsed / 1e9);
	}

	static double compilerSeconds() {
		if (Files.isDirectory(TASKS)) {
			long ticks = 0;
			try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
				for (Path task : tasks) {
					ticks += compilerTicks(task);
				}
				return ticks / TICKS_PER_SECOND;
			}
			catch (IOException | RuntimeException ex) {
				// fall through to the MXBean
			}
		}
		CompilationMXBean compilation = ManagementFactory.getCompilationMXBean();
		return (compilation != null && compilation.isCompilationTimeMonitoringSupported())
				? compilation.getTotalCompilationTime() / 1e3 : 0;
	}

	private static long compilerTicks(Path task) {
		try {
			String name = Files.readString(task.resolve("comm")).strip();
			if (!name.contains("CompilerThre")) {
				return 0;
			}
			String stat = Files.readString(task.resolve("stat"));
			// fields after the ")" that ends the thread name: utime is the 12th, stime
			// the 13th
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			// the thread ended meanwhile
			return 0;
		}
	}

}
