package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

import io.echomq.listener.JobExecutorFactory;

/**
 * Drain of pre-filled jobs whose handlers sleep ({@code --handler-ms}, default 10 ms), as
 * handlers that wait on I/O do, at the {@code --io-concurrency} levels (default 64 and
 * 256), by the listener containers on virtual threads (platform threads before Java 21,
 * said in the run's notes). Besides jobs/s it reports the share of the ideal rate
 * (concurrency ÷ handler time) and what each job cost on both sides, to set beside the
 * no-op drain's.
 *
 * @author EchoMQ
 */
final class IoDrainFigure extends Figure {

	private static final String QUEUE = "bench-io";

	IoDrainFigure() {
		super("io");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (int concurrency : options.ioConcurrency()) {
			String base = base(concurrency);
			names.add(base);
			addMetrics(names, base, "ideal_percent", "scripts_per_job", "round_trips_per_job", "jvm_us_per_job",
					"server_us_per_job");
		}
		return names;
	}

	@Override
	public void warmUp(RunContext context) {
		int concurrency = context.options().ioConcurrency().get(0);
		drain(context, concurrency, Math.max(200, context.scale().drainJobs() / 5));
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		int handlerMillis = context.options().handlerMillis();
		for (int concurrency : context.options().ioConcurrency()) {
			Drain drain = drain(context, concurrency, context.scale().drainJobs());
			String base = base(concurrency);
			double ideal = concurrency * 1000.0 / handlerMillis;
			double percent = drain.jobsPerSecond() * 100 / ideal;
			readings.add(new Reading(base, drain.jobsPerSecond(), "jobs/s"));
			readings.add(new Reading(base + ".ideal_percent", percent, "%"));
			readings.add(new Reading(base + ".scripts_per_job", drain.scriptsPerJob(), "scripts/job"));
			readings.add(new Reading(base + ".round_trips_per_job", drain.roundTripsPerJob(), "commands/job"));
			readings.add(new Reading(base + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
			context.note(String.format(
					"%s handler %d ms on %s threads: %.0f jobs/s (%.1f %% of ideal %.0f), JVM %.1f us/job, server %.1f us/job, %.3f scripts/job",
					base, handlerMillis, virtualThreads() ? "virtual" : "platform", drain.jobsPerSecond(), percent,
					ideal, drain.jvmMicrosPerJob(), drain.serverMicrosPerJob(), drain.scriptsPerJob()));
		}
		return readings;
	}

	private static String base(int concurrency) {
		return "drain.io.c" + concurrency;
	}

	private static boolean virtualThreads() {
		return Runtime.version().feature() >= 21;
	}

	private static Drain drain(RunContext context, int concurrency, int jobs) {
		BenchServer server = context.server();
		long sleep = context.options().handlerMillis();
		server.reset();
		Probes.prefill(server.newEngine(), QUEUE, jobs);
		Drain drain = Drain.run(context, () -> new ListenerConsumers(server.newEngine(), (engine, factory) -> {
			if (virtualThreads()) {
				factory.setExecutorFactory(JobExecutorFactory.virtualThreads());
			}
		}), List.of(QUEUE), concurrency, jobs, (payload) -> sleep(sleep));
		server.reset();
		return drain;
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
