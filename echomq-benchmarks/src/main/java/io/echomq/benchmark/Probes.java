package io.echomq.benchmark;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;

/**
 * Small measuring helpers: the JVM's CPU time, pauses, waiting for a count, pre-filling a
 * queue.
 *
 * @author EchoMQ
 */
final class Probes {

	private static final int PREFILL_BATCH = 1_000;

	private Probes() {
	}

	/**
	 * Return the CPU time this JVM process used so far, every thread included.
	 * @return nanoseconds
	 */
	static long jvmCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		throw new IllegalStateException("This JVM does not report its process CPU time");
	}

	static void sleep(double seconds) {
		sleepNanos((long) (seconds * 1e9));
	}

	static void sleepNanos(long nanos) {
		long deadline = System.nanoTime() + nanos;
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
	}

	/**
	 * Wait until the consumers completed at least {@code target} jobs.
	 * @param consumers the consumers
	 * @param target the count to reach
	 * @param timeoutSeconds how long to wait at most
	 * @return the {@link System#nanoTime()} at which the count was seen
	 * @throws IllegalStateException on timeout
	 */
	static long awaitCompleted(Consumers consumers, long target, long timeoutSeconds) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
		while (true) {
			long done = consumers.completed();
			long now = System.nanoTime();
			if (done >= target) {
				return now;
			}
			if (now - deadline > 0) {
				throw new IllegalStateException(
						"Only " + done + " of " + target + " jobs completed in " + timeoutSeconds + " s");
			}
			LockSupport.parkNanos(500_000);
		}
	}

	/**
	 * Pre-fill a queue with unstamped payloads, {@value #PREFILL_BATCH} per
	 * {@code enqueueAll} call.
	 * @param jobs the verbs
	 * @param queue the queue
	 * @param count how many jobs
	 */
	static void prefill(Engine jobs, String queue, int count) {
		prefill(jobs, queue, count, Payloads.plain());
	}

	/**
	 * Enqueue jobs of one payload in batches.
	 * @param jobs the engine
	 * @param queue the queue
	 * @param count how many
	 * @param payload the payload of each
	 */
	static void prefill(Engine jobs, String queue, int count, String payload) {
		List<String> batch = java.util.Collections.nCopies(PREFILL_BATCH, payload);
		for (int done = 0; done < count; done += PREFILL_BATCH) {
			int size = Math.min(PREFILL_BATCH, count - done);
			jobs.enqueues()
				.enqueueAll(queue, (size == PREFILL_BATCH) ? batch : batch.subList(0, size), EnqueueSpec.defaults());
		}
	}

	/**
	 * Return queue names {@code prefix-0} to {@code prefix-(count-1)}.
	 * @param prefix the prefix
	 * @param count how many
	 * @return the names
	 */
	static List<String> queues(String prefix, int count) {
		List<String> names = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			names.add(prefix + "-" + i);
		}
		return names;
	}

	/**
	 * Return a CPU time as a percentage of one core over a wall-clock interval.
	 * @param cpuNanos the CPU time
	 * @param wallNanos the interval
	 * @return the percentage
	 */
	static double percentOfCore(double cpuNanos, long wallNanos) {
		return 100.0 * cpuNanos / wallNanos;
	}

}
