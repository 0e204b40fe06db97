package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * Enqueue-to-handler latency (p50, p99, max) at {@value Latency#RATE} jobs/s with idle
 * workers, one queue at concurrency {@value #CONCURRENCY}, for each consumer kind.
 *
 * @author EchoMQ
 */
final class LatencyFigure extends Figure {

	static final int CONCURRENCY = 8;

	private static final String QUEUE = "bench-latency";

	LatencyFigure() {
		super("latency");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		return metricsPer(options.consumers(), (kind) -> "latency." + kind.label(), "p50", "p99", "max");
	}

	/**
	 * Run the measured workload, samples discarded, so that the harness repeats it until
	 * the JIT is quiet: without a warm-up of its own this group was measured while the
	 * compiler still used 15-34 % of a core.
	 */
	@Override
	public void warmUp(RunContext context) {
		for (ConsumerKind kind : context.options().consumers()) {
			measure(context, kind);
		}
		context.server().reset();
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		for (ConsumerKind kind : context.options().consumers()) {
			Samples samples = measure(context, kind);
			String base = "latency." + kind.label();
			readings.add(new Reading(base + ".p50", samples.percentile(50) / 1e6, "ms"));
			readings.add(new Reading(base + ".p99", samples.percentile(99) / 1e6, "ms"));
			readings.add(new Reading(base + ".max", samples.max() / 1e6, "ms"));
			context.note(String.format("%s %d samples, p50 %.3f ms, p99 %.3f ms, max %.3f ms", base, samples.size(),
					samples.percentile(50) / 1e6, samples.percentile(99) / 1e6, samples.max() / 1e6));
		}
		context.server().reset();
		return readings;
	}

	private static Samples measure(RunContext context, ConsumerKind kind) {
		Scale scale = context.scale();
		context.server().reset();
		return Latency.run(context, kind, List.of(QUEUE), CONCURRENCY, scale.latencyWarmUpSeconds(),
				scale.latencySeconds());
	}

}
