package io.echomq.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU that other processes use while the harness measures: all the machine's busy
 * time ({@code /proc/stat}) less this JVM's and the server's ({@code /proc/<pid>/stat}),
 * as a percentage of one core. On a shared machine it tells a quiet run from a noisy one;
 * off Linux it reads 0.
 *
 * @author EchoMQ
 */
final class Noise {

	/** Clock ticks per second of the {@code /proc} counters. */
	private static final double TICKS_PER_SECOND = 100;

	private final long serverPid;

	private long startTicks;

	private long startNanos;

	Noise(long serverPid) {
		this.serverPid = serverPid;
	}

	/**
	 * Start an interval.
	 */
	void start() {
		this.startTicks = foreignTicks();
		this.startNanos = System.nanoTime();
	}

	/**
	 * Return the other processes' CPU since {@link #start()}.
	 * @return % of one core
	 */
	double percentSinceStart() {
		long elapsed = System.nanoTime() - this.startNanos;
		double percent = 100.0 * (foreignTicks() - this.startTicks) / TICKS_PER_SECOND / (elapsed / 1e9);
		// the counters tick at different moments: a quiet interval can read slightly
		// negative
		return (elapsed > 0) ? Math.max(0, percent) : 0;
	}

	/**
	 * Wait until other processes use less than {@code maxPercent} of one core over two
	 * seconds, or until {@code maxWaitSeconds} passed.
	 * @param maxPercent the threshold
	 * @param maxWaitSeconds the longest wait
	 * @return the last reading
	 */
	double awaitQuiet(double maxPercent, double maxWaitSeconds) {
		long deadline = System.nanoTime() + (long) (maxWaitSeconds * 1e9);
		double reading;
		do {
			start();
			Probes.sleep(2);
			reading = percentSinceStart();
		}
		while (reading > maxPercent && System.nanoTime() - deadline < 0);
		return reading;
	}

	private long foreignTicks() {
		long total = machineBusyTicks();
		if (total < 0) {
			return 0;
		}
		return total - processTicks("self") - processTicks(Long.toString(this.serverPid));
	}

	private static long machineBusyTicks() {
		try {
			String line = Files.readAllLines(Path.of("/proc/stat")).get(0);
			String[] fields = line.trim().split("\\s+");
			// cpu user nice system idle iowait irq softirq steal ...: interrupts are left
			// out, the
			// loopback traffic of the measurement itself is accounted there
			long busy = 0;
			for (int i : new int[] { 1, 2, 3, 8 }) {
				busy += Long.parseLong(fields[i]);
			}
			return busy;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	private static long processTicks(String pid) {
		try {
			String stat = Files.readString(Path.of("/proc", pid, "stat"));
			String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
			// fields[11] utime, fields[12] stime, fields[13] cutime, fields[14] cstime
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

}
