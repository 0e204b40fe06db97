package io.echomq.benchmark;

import java.util.List;

/**
 * CPU used while consumers wait on empty queues: this JVM's process CPU time
 * ({@code com.sun.management.OperatingSystemMXBean}) and the server's ({@code INFO cpu}),
 * each as a percentage of one core.
 *
 * @param jvmPercent the JVM's CPU, % of one core
 * @param serverPercent the server's CPU, % of one core
 * @param clientCommandsPerSecond commands the Lettuce client sent per second
 * @param serverCommands what the server ran meanwhile ({@code INFO commandstats} delta,
 * the commands scripts run included)
 * @param seconds how long the window was
 * @author EchoMQ
 */
record Idle(double jvmPercent, double serverPercent, double clientCommandsPerSecond, CommandStats serverCommands,
		double seconds) {

	/**
	 * Return the commands the server ran per second, those inside scripts included.
	 * @return the rate
	 */
	double serverCommandsPerSecond() {
		return this.serverCommands.allCalls() / this.seconds;
	}

	/**
	 * Return each command's calls per second, per queue, busiest first, e.g.
	 * {@code evalsha 0.10, blpop 0.05}.
	 * @param queues the queues to divide by
	 * @return the text
	 */
	String byCommand(int queues) {
		StringBuilder text = new StringBuilder();
		this.serverCommands.calls()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() > 0 && !CommandStats.isAdmin(entry.getKey()))
			.sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
			.forEach((entry) -> text.append((text.length() > 0) ? ", " : "")
				.append(String.format("%s %.3f", entry.getKey(), entry.getValue() / this.seconds / queues)));
		return text.toString();
	}

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
	static Idle run(RunContext context, ConsumerKind kind, List<String> queues, int concurrency, double settleSeconds,
			double seconds) {
		try (Consumers consumers = kind.open(context.server())) {
			for (String queue : queues) {
				consumers.start(queue, concurrency, (payload) -> {
				});
			}
			Probes.sleep(settleSeconds);
			return measure(context.server(), seconds);
		}
	}

	private static Idle measure(BenchServer server, double seconds) {
		double serverCpu = server.cpuSeconds();
		CommandStats commands = server.commandStats();
		long client = server.clientCommands();
		long jvmCpu = Probes.jvmCpuNanos();
		long start = System.nanoTime();
		Probes.sleep(seconds);
		long jvmUsed = Probes.jvmCpuNanos() - jvmCpu;
		long elapsed = System.nanoTime() - start;
		double serverUsed = server.cpuSeconds() - serverCpu;
		long clientUsed = server.clientCommands() - client;
		CommandStats ran = server.commandStats().minus(commands);
		return new Idle(Probes.percentOfCore(jvmUsed, elapsed), Probes.percentOfCore(serverUsed * 1e9, elapsed),
				clientUsed * 1e9 / elapsed, ran, elapsed / 1e9);
	}

}
