package io.echomq.benchmark;

/**
 * The CPU both sides spent on a stretch of work, per job: this JVM's process CPU time and
 * the server's ({@code INFO cpu}). Far steadier than throughput on a shared machine,
 * where other processes take the cores but not this process's CPU time per job.
 *
 * @author EchoMQ
 */
final class CpuMeter {

	private final BenchServer server;

	private final long jvmStart;

	private final double serverStart;

	private CpuMeter(BenchServer server) {
		this.server = server;
		this.serverStart = server.cpuSeconds();
		this.jvmStart = Probes.jvmCpuNanos();
	}

	static CpuMeter start(BenchServer server) {
		return new CpuMeter(server);
	}

	/**
	 * Stop and return what each of {@code jobs} cost.
	 * @param jobs the jobs done since the start
	 * @return JVM and server microseconds per job
	 */
	PerJob perJob(long jobs) {
		long jvm = Probes.jvmCpuNanos() - this.jvmStart;
		double serverSeconds = this.server.cpuSeconds() - this.serverStart;
		return new PerJob(jvm / 1e3 / jobs, serverSeconds * 1e6 / jobs);
	}

	/**
	 * CPU per job on each side.
	 *
	 * @param jvmMicros JVM microseconds per job
	 * @param serverMicros server microseconds per job
	 */
	record PerJob(double jvmMicros, double serverMicros) {

	}

}
