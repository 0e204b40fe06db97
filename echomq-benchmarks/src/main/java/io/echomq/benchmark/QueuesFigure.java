package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * How cost grows with the number of queues, each with its own consumer of the first
 * consumer kind at concurrency {@code ceil(16 / queues)}: drain throughput of pre-filled
 * jobs spread evenly over the queues, enqueue-to-handler latency at {@value Latency#RATE}
 * jobs/s round robin over the queues, and idle CPU.
 *
 * @author EchoMQ
 */
final class QueuesFigure extends Figure {

	private static final int TOTAL_CONCURRENCY = 16;

	QueuesFigure() {
		super("queues");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		return metricsPer(options.queueCounts(), (count) -> base(options, count), "drain", "drain.jvm_us_per_job",
				"drain.server_us_per_job", "latency.p50", "latency.p99", "idle_jvm_cpu", "idle_server_cpu");
	}

	@Override
	public void warmUp(RunContext context) {
		BenchServer server = context.server();
		server.reset();
		int jobs = context.scale().queuesDrainJobs();
		List<String> queues = Probes.queues("bench-q", 10);
		for (String queue : queues) {
			Probes.prefill(server.newEngine(), queue, jobs / 10);
		}
		Drain.run(context, context.options().primaryConsumer(), queues, 2, jobs / 10 * 10);
		server.reset();
		Idle.run(context, context.options().primaryConsumer(), queues, 2, 10, 0.1);
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		Scale scale = context.scale();
		ConsumerKind kind = context.options().primaryConsumer();
		BenchServer server = context.server();
		for (int count : context.options().queueCounts()) {
			String base = base(context.options(), count);
			List<String> queues = Probes.queues("bench-q", count);
			int concurrency = (TOTAL_CONCURRENCY + count - 1) / count;

			server.reset();
			int perQueue = Math.max(1, scale.queuesDrainJobs() / count);
			for (String queue : queues) {
				Probes.prefill(server.newEngine(), queue, perQueue);
			}
			Drain drain = Drain.run(context, kind, queues, concurrency, (long) perQueue * count);
			readings.add(new Reading(base + ".drain", drain.jobsPerSecond(), "jobs/s"));
			readings.add(new Reading(base + ".drain.jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".drain.server_us_per_job", drain.serverMicrosPerJob(), "us/job"));

			server.reset();
			Samples samples = Latency.run(context, kind, queues, concurrency, Math.min(1, scale.queuesSeconds()),
					scale.queuesSeconds());
			readings.add(new Reading(base + ".latency.p50", samples.percentile(50) / 1e6, "ms"));
			readings.add(new Reading(base + ".latency.p99", samples.percentile(99) / 1e6, "ms"));

			server.reset();
			Idle idle = Idle.run(context, kind, queues, concurrency, scale.settleSeconds(), scale.queuesSeconds());
			readings.add(new Reading(base + ".idle_jvm_cpu", idle.jvmPercent(), "%core"));
			readings.add(new Reading(base + ".idle_server_cpu", idle.serverPercent(), "%core"));
			context.note(String.format("%s drain %.0f jobs/s, latency p50 %.3f ms p99 %.3f ms, idle jvm %.2f %%", base,
					drain.jobsPerSecond(), samples.percentile(50) / 1e6, samples.percentile(99) / 1e6,
					idle.jvmPercent()));
		}
		server.reset();
		return readings;
	}

	private static String base(HarnessOptions options, int count) {
		return "queues.q" + count + "." + options.primaryConsumer().label();
	}

}
