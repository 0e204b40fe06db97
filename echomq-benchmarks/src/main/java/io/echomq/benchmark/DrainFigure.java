package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * Drain of pre-filled jobs with no-op handlers at concurrency 8 and 16, for each consumer
 * kind, with what each job cost: script calls and server commands
 * ({@code INFO commandstats}, commands inside scripts included), client round trips,
 * server script time and CPU on both sides.
 *
 * @author EchoMQ
 */
final class DrainFigure extends Figure {

	static final int[] CONCURRENCY = { 8, 16 };

	private static final String QUEUE = "bench-drain";

	DrainFigure() {
		super("drain");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (ConsumerKind kind : options.consumers()) {
			for (int concurrency : CONCURRENCY) {
				String base = "drain." + kind.label() + ".c" + concurrency;
				names.add(base);
				addMetrics(names, base, "scripts_per_job", "commands_per_job", "round_trips_per_job",
						"script_us_per_job", "script_us_per_call", "server_cpu", "jvm_cpu", "jvm_us_per_job",
						"server_us_per_job");
			}
		}
		return names;
	}

	@Override
	public void warmUp(RunContext context) {
		for (ConsumerKind kind : context.options().consumers()) {
			drain(context, kind, 16, Math.max(200, context.scale().drainJobs() / 5));
		}
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		for (ConsumerKind kind : context.options().consumers()) {
			for (int concurrency : CONCURRENCY) {
				Drain drain = drain(context, kind, concurrency, context.scale().drainJobs());
				String base = "drain." + kind.label() + ".c" + concurrency;
				readings.add(new Reading(base, drain.jobsPerSecond(), "jobs/s"));
				readings.add(new Reading(base + ".scripts_per_job", drain.scriptsPerJob(), "scripts/job"));
				readings.add(new Reading(base + ".commands_per_job", drain.commandsPerJob(), "commands/job"));
				readings.add(new Reading(base + ".round_trips_per_job", drain.roundTripsPerJob(), "commands/job"));
				readings.add(new Reading(base + ".script_us_per_job", drain.scriptMicrosPerJob(), "us/job"));
				readings.add(new Reading(base + ".script_us_per_call", drain.scriptMicrosPerCall(), "us/call"));
				readings.add(new Reading(base + ".server_cpu", drain.serverCpuPercent(), "%core"));
				readings.add(new Reading(base + ".jvm_cpu", drain.jvmCpuPercent(), "%core"));
				readings.add(new Reading(base + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
				readings.add(new Reading(base + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
				context.note(String.format(
						"%s %.0f jobs/s, JVM %.1f us/job, server %.1f us/job, %.3f scripts/job, %.2f round trips/job",
						base, drain.jobsPerSecond(), drain.jvmMicrosPerJob(), drain.serverMicrosPerJob(),
						drain.scriptsPerJob(), drain.roundTripsPerJob()));
			}
		}
		return readings;
	}

	private static Drain drain(RunContext context, ConsumerKind kind, int concurrency, int jobs) {
		BenchServer server = context.server();
		server.reset();
		Probes.prefill(server.newEngine(), QUEUE, jobs);
		Drain drain = Drain.run(context, kind, List.of(QUEUE), concurrency, jobs);
		server.reset();
		return drain;
	}

}
