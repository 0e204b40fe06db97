package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;

/**
 * Fair lanes: what they cost and what they buy (the rate limiter is
 * {@link LimiterFigure}).
 * <ul>
 * <li>{@code lanes.cost.*}: drain of the drain figure's jobs (50,000) by listeners at
 * c16, without lanes and spread over 100 lanes; the ratio lanes / no lanes.</li>
 * <li>{@code lanes.fairness.*}: a quiet lane receiving 20 jobs/s while a noisy lane holds
 * 100,000 pending jobs (1 ms handlers, c16), against the same with the noisy lane empty:
 * the quiet lane's p99 enqueue-to-handler latency, and the ratio.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class LanesFigure extends Figure {

	private static final int LANES = 100;

	private static final int QUIET_RATE = 20;

	LanesFigure() {
		super("lanes", "lanes.cost.plain.c16", "lanes.cost.lanes100.c16", "lanes.cost.ratio",
				"lanes.fairness.quiet_p99_alone", "lanes.fairness.quiet_p99_noisy", "lanes.fairness.ratio");
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		int jobs = context.scale().drainJobs();
		double plain = drain(context, jobs, 0);
		double laned = drain(context, jobs, LANES);
		readings.add(new Reading("lanes.cost.plain.c16", plain, "jobs/s"));
		readings.add(new Reading("lanes.cost.lanes100.c16", laned, "jobs/s"));
		readings.add(new Reading("lanes.cost.ratio", laned / plain, "ratio"));
		context.note(String.format("lanes cost: %.0f jobs/s plain, %.0f jobs/s over %d lanes, ratio %.2f", plain, laned,
				LANES, laned / plain));
		boolean smoke = context.options().smoke();
		double seconds = smoke ? 1 : 5;
		int noisy = smoke ? 200 : 100_000;
		double alone = fairness(context, 0, seconds);
		double crowded = fairness(context, noisy, seconds);
		readings.add(new Reading("lanes.fairness.quiet_p99_alone", alone, "ms"));
		readings.add(new Reading("lanes.fairness.quiet_p99_noisy", crowded, "ms"));
		readings.add(new Reading("lanes.fairness.ratio", crowded / alone, "ratio"));
		context.note(String.format("fairness: quiet p99 %.1f ms alone, %.1f ms beside %d noisy, ratio %.2f", alone,
				crowded, noisy, crowded / alone));
		return readings;
	}

	private static double drain(RunContext context, int jobs, int lanes) {
		BenchServer server = context.server();
		server.reset();
		String queue = "bench-lanes-cost";
		Engine producer = server.newEngine();
		if (lanes == 0) {
			Probes.prefill(producer, queue, jobs);
		}
		else {
			int perLane = jobs / lanes;
			List<String> payloads = Payloads.plain(perLane);
			for (int lane = 0; lane < lanes; lane++) {
				producer.enqueues().enqueueAll(queue, payloads, EnqueueSpec.defaults().withLane("lane-" + lane));
			}
		}
		Drain drain = Drain.run(context, ConsumerKind.LISTENER, List.of(queue), 16,
				(jobs / Math.max(1, lanes)) * Math.max(1, lanes));
		server.reset();
		return drain.jobsPerSecond();
	}

	private static double fairness(RunContext context, int noisy, double seconds) {
		BenchServer server = context.server();
		server.reset();
		String queue = "bench-lanes-fair";
		Engine producer = server.newEngine();
		if (noisy > 0) {
			int batch = 1_000;
			List<String> payloads = Payloads.plain(batch);
			for (int done = 0; done < noisy; done += batch) {
				producer.enqueues()
					.enqueueAll(queue, payloads.subList(0, Math.min(batch, noisy - done)),
							EnqueueSpec.defaults().withLane("noisy"));
			}
		}
		Samples samples = new Samples();
		try (Consumers consumers = ConsumerKind.LISTENER.open(server)) {
			consumers.start(queue, 16, (payload) -> {
				long sent = Payloads.stamp(payload);
				if (sent != 0) {
					samples.add(System.nanoTime() - sent);
				}
				else {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
			});
			long interval = 1_000_000_000L / QUIET_RATE;
			long count = Math.round(seconds * QUIET_RATE);
			long start = System.nanoTime();
			EnqueueSpec quiet = EnqueueSpec.defaults().withLane("quiet");
			for (long i = 0; i < count; i++) {
				Probes.sleepNanos(start + i * interval - System.nanoTime());
				producer.enqueues().enqueue(queue, Payloads.stamped(System.nanoTime()), quiet);
			}
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (samples.size() < count && System.nanoTime() - deadline < 0) {
				Probes.sleep(0.01);
			}
		}
		server.reset();
		return samples.percentile(99) / 1e6;
	}

}
