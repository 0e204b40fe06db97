package io.echomq.benchmark;

import java.util.List;

/**
 * CPU used while consumers wait on empty queues: this JVM's process CPU time
 * ({@code com.sun.management.OperatingSystemMXBean}) and the server's
 * ({@code INFO cpu}), each as a percentage of one core.
 *
 * @param jvmPercent the JVM's CPU, % of one core
 * @param serverPercent the server's CPU, % of one core
 * @param clientCommandsPerSecond commands the Lettuce client sent per second
 * @author EchoMQ
 */
record Idle(double jvmPercent, double serverPercent, double clientCommandsPerSecond) {

	/**
	 * Measure with no consumer at all, as the baseline of this JVM and server.
	 * @param context the run context
	 * @param seconds how long to measure
	 * @return the readings
	 */
	static Idle baseline(RunContext context, double seconds) {
		return measure(context.server(), seconds);
	}

	/**
	 * Measure consumers on empty queues.
	 * @param context the run context
	 * @param kind the consumer kind
	 * @param queues the queues, empty
	 * @param concurrency handlers per queue
	 * @param settleSeconds how long the consumers run before measuring
	 * @param seconds how long to measure
	 * @return the readings
	 */
	static Idle run(RunContext context, ConsumerKind kind, List<String> queues, int concurrency,
			double settleSeconds, double seconds) {
		try (Consumers consumers = kind.open(context.server())) {
			for (String queue : queues) {
				consumers.start(queue, concurrency, (job) -> {
				});
			}
			Probes.sleep(settleSeconds);
			return measure(context.server(), seconds);
		}
	}

	private static Idle measure(BenchServer server, double seconds) {
		double serverCpu = server.cpuSeconds();
		long client = server.clientCommands();
		long jvmCpu = Probes.jvmCpuNanos();
		long start = System.nanoTime();
		Probes.sleep(seconds);
		long jvmUsed = Probes.jvmCpuNanos() - jvmCpu;
		long elapsed = System.nanoTime() - start;
		double serverUsed = server.cpuSeconds() - serverCpu;
		long clientUsed = server.clientCommands() - client;
		return new Idle(Probes.percentOfCore(jvmUsed, elapsed), Probes.percentOfCore(serverUsed * 1e9, elapsed),
				clientUsed * 1e9 / elapsed);
	}

}
