package io.echomq.benchmark;

import java.util.List;
import java.util.function.Supplier;

/**
 * Drains pre-filled queues with fresh consumers and records what it cost: wall time,
 * server command statistics, client commands and CPU on both sides.
 *
 * @param jobs the jobs drained
 * @param elapsedNanos from the consumers' start to the last completion
 * @param stats the server's command statistics over the drain
 * @param clientCommands the commands the Lettuce client sent
 * @param serverCpuSeconds the CPU time the server used
 * @param jvmCpuNanos the CPU time this JVM used
 * @author EchoMQ
 */
record Drain(long jobs, long elapsedNanos, CommandStats stats, long clientCommands, double serverCpuSeconds,
		long jvmCpuNanos) {

	private static final long TIMEOUT_SECONDS = 600;

	/**
	 * Drain pre-filled queues.
	 * @param context the run context
	 * @param kind the consumer kind
	 * @param queues the queues, already filled
	 * @param concurrency handlers per queue
	 * @param jobs how many jobs to wait for, over every queue
	 * @return what the drain cost
	 */
	static Drain run(RunContext context, ConsumerKind kind, List<String> queues, int concurrency, long jobs) {
		return run(context, () -> kind.open(context.server()), queues, concurrency, jobs);
	}

	/**
	 * Drain pre-filled queues with consumers set up by the caller.
	 * @param context the run context
	 * @param opener opens the consumers, none started yet
	 * @param queues the queues, already filled
	 * @param concurrency handlers per queue
	 * @param jobs how many jobs to wait for, over every queue
	 * @return what the drain cost
	 */
	static Drain run(RunContext context, Supplier<Consumers> opener, List<String> queues, int concurrency, long jobs) {
		return run(context, opener, queues, concurrency, jobs, (payload) -> {
		});
	}

	/**
	 * Drain pre-filled queues with consumers set up by the caller and a given handler.
	 * @param context the run context
	 * @param opener opens the consumers, none started yet
	 * @param queues the queues, already filled
	 * @param concurrency handlers per queue
	 * @param jobs how many jobs to wait for, over every queue
	 * @param handler what each handler does
	 * @return what the drain cost
	 */
	static Drain run(RunContext context, Supplier<Consumers> opener, List<String> queues, int concurrency, long jobs,
			BenchHandler handler) {
		BenchServer server = context.server();
		try (Consumers consumers = opener.get()) {
			server.resetStats();
			CommandStats before = server.commandStats();
			double serverCpu = server.cpuSeconds();
			long client = server.clientCommands();
			long jvmCpu = Probes.jvmCpuNanos();
			long start = System.nanoTime();
			for (String queue : queues) {
				consumers.start(queue, concurrency, handler);
			}
			long end = Probes.awaitCompleted(consumers, jobs, TIMEOUT_SECONDS);
			long jvmCpuUsed = Probes.jvmCpuNanos() - jvmCpu;
			long clientUsed = server.clientCommands() - client;
			double serverCpuUsed = server.cpuSeconds() - serverCpu;
			CommandStats stats = server.commandStats().minus(before);
			return new Drain(jobs, end - start, stats, clientUsed, serverCpuUsed, jvmCpuUsed);
		}
	}

	double jobsPerSecond() {
		return this.jobs * 1e9 / this.elapsedNanos;
	}

	double scriptsPerJob() {
		return (double) this.stats.scriptCalls() / this.jobs;
	}

	double commandsPerJob() {
		return (double) this.stats.allCalls() / this.jobs;
	}

	double roundTripsPerJob() {
		return (double) this.clientCommands / this.jobs;
	}

	double scriptMicrosPerJob() {
		return (double) this.stats.scriptUsec() / this.jobs;
	}

	double scriptMicrosPerCall() {
		long calls = this.stats.scriptCalls();
		return (calls > 0) ? (double) this.stats.scriptUsec() / calls : 0;
	}

	double serverCpuPercent() {
		return Probes.percentOfCore(this.serverCpuSeconds * 1e9, this.elapsedNanos);
	}

	double jvmCpuPercent() {
		return Probes.percentOfCore(this.jvmCpuNanos, this.elapsedNanos);
	}

	double serverMicrosPerJob() {
		return this.serverCpuSeconds * 1e6 / this.jobs;
	}

	double jvmMicrosPerJob() {
		return this.jvmCpuNanos / 1e3 / this.jobs;
	}

}
