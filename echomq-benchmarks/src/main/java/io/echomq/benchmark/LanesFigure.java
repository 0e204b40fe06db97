package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import io.echomq.core.EnqueueSpec;
import io.echomq.core.FlowLimits;
import io.echomq.core.Jobs;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;

/**
 * Flow control: what fair lanes cost and buy, and how exact the rate limiter is.
 * <ul>
 * <li>{@code lanes.cost.*}: drain of the drain figure's jobs (50,000) by listeners at
 * c16, without lanes and spread over 100 lanes; the ratio lanes / no lanes.</li>
 * <li>{@code lanes.fairness.*}: a quiet lane receiving 20 jobs/s while a noisy lane holds
 * 100,000 pending jobs (1 ms handlers, c16), against the same with the noisy lane empty:
 * the quiet lane's p99 enqueue-to-handler latency, and the ratio.</li>
 * <li>{@code lanes.limiter.*}: three listener containers (each on its own engine and
 * connections, in this JVM) on one queue limited to 1,000 starts/s, 30 s: the started
 * rate per second of server time after the first, its lowest and highest, and the
 * largest excess over the limit in any window of one second.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class LanesFigure implements Figure {

	private static final int LANES = 100;

	private static final int QUIET_RATE = 20;

	private static final int LIMIT = 1_000;

	@Override
	public String group() {
		return "lanes";
	}

	@Override
	public List<String> names(HarnessOptions options) {
		return List.of("lanes.cost.plain.c16", "lanes.cost.lanes100.c16", "lanes.cost.ratio",
				"lanes.fairness.quiet_p99_alone", "lanes.fairness.quiet_p99_noisy", "lanes.fairness.ratio",
				"lanes.limiter.rate_min", "lanes.limiter.rate_max", "lanes.limiter.window_max");
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
		context.note(String.format("lanes cost: %.0f jobs/s plain, %.0f jobs/s over %d lanes, ratio %.2f", plain,
				laned, LANES, laned / plain));
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
		int[] limiter = limiter(context, smoke ? 2 : 30);
		readings.add(new Reading("lanes.limiter.rate_min", limiter[0], "jobs/s"));
		readings.add(new Reading("lanes.limiter.rate_max", limiter[1], "jobs/s"));
		readings.add(new Reading("lanes.limiter.window_max", limiter[2], "jobs"));
		context.note(String.format("limiter at %d/s: per second %d..%d, most in any 1 s window %d", LIMIT,
				limiter[0], limiter[1], limiter[2]));
		return readings;
	}

	private static double drain(RunContext context, int jobs, int lanes) {
		BenchServer server = context.server();
		server.reset();
		String queue = "bench-lanes-cost";
		Jobs producer = server.newJobs();
		if (lanes == 0) {
			Probes.prefill(producer, queue, jobs);
		}
		else {
			int perLane = jobs / lanes;
			List<String> payloads = Payloads.plain(perLane);
			for (int lane = 0; lane < lanes; lane++) {
				producer.enqueueAll(queue, payloads, EnqueueSpec.defaults().withLane("lane-" + lane));
			}
		}
		Drain drain = Drain.run(context, ConsumerKind.LISTENER, List.of(queue), 16, (jobs / Math.max(1, lanes))
				* Math.max(1, lanes));
		server.reset();
		return drain.jobsPerSecond();
	}

	private static double fairness(RunContext context, int noisy, double seconds) {
		BenchServer server = context.server();
		server.reset();
		String queue = "bench-lanes-fair";
		Jobs producer = server.newJobs();
		if (noisy > 0) {
			int batch = 1_000;
			List<String> payloads = Payloads.plain(batch);
			for (int done = 0; done < noisy; done += batch) {
				producer.enqueueAll(queue, payloads.subList(0, Math.min(batch, noisy - done)),
						EnqueueSpec.defaults().withLane("noisy"));
			}
		}
		Samples samples = new Samples();
		try (Consumers consumers = ConsumerKind.LISTENER.open(server)) {
			consumers.start(queue, 16, (job) -> {
				long sent = Payloads.stamp(job.payload());
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
				producer.enqueue(queue, Payloads.stamped(System.nanoTime()), quiet);
			}
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
			while (samples.size() < count && System.nanoTime() - deadline < 0) {
				Probes.sleep(0.01);
			}
		}
		server.reset();
		return samples.percentile(99) / 1e6;
	}

	/**
	 * @return the lowest and highest count per second of server time after the first,
	 * and the most starts in any window of one second
	 */
	private static int[] limiter(RunContext context, int seconds) {
		BenchServer server = context.server();
		server.reset();
		String queue = "bench-lanes-limiter";
		int jobs = LIMIT * (seconds + 2);
		Probes.prefill(server.newJobs(), queue, jobs);
		List<Long> starts = Collections.synchronizedList(new ArrayList<>(jobs));
		AtomicBoolean open = new AtomicBoolean(true);
		LongAdder handled = new LongAdder();
		List<EchoJobListenerRegistry> registries = new ArrayList<>();
		List<EchoJobListenerContainerFactory> factories = new ArrayList<>();
		FlowLimits limits = new FlowLimits(null, new FlowLimits.RateLimit(LIMIT, Duration.ofSeconds(1)));
		try {
			for (int i = 0; i < 3; i++) {
				EchoJobListenerContainerFactory factory = new EchoJobListenerContainerFactory(server.newJobs());
				factory.setQueueLimits(Map.of(queue, limits));
				EchoJobListenerRegistry registry = new EchoJobListenerRegistry(factory);
				registry.start();
				registry.register(queue, (job, jobContext) -> {
					if (open.get()) {
						starts.add(job.claimedAt().toEpochMilli());
					}
					handled.increment();
				}, ListenerSettings.builder().concurrency(16).build());
				factories.add(factory);
				registries.add(registry);
			}
			Probes.sleep(seconds);
			open.set(false);
		}
		finally {
			registries.forEach(EchoJobListenerRegistry::stop);
			factories.forEach(EchoJobListenerContainerFactory::destroy);
		}
		server.reset();
		List<Long> sorted;
		synchronized (starts) {
			sorted = starts.stream().sorted().toList();
		}
		if (sorted.isEmpty()) {
			return new int[] { 0, 0, 0 };
		}
		long first = sorted.get(0);
		TreeMap<Long, Integer> perSecond = new TreeMap<>();
		for (long t : sorted) {
			perSecond.merge((t - first) / 1000, 1, Integer::sum);
		}
		int min = Integer.MAX_VALUE;
		int max = 0;
		for (Map.Entry<Long, Integer> second : perSecond.entrySet()) {
			if (second.getKey() >= 1 && second.getKey() < perSecond.lastKey()) {
				min = Math.min(min, second.getValue());
				max = Math.max(max, second.getValue());
			}
		}
		int window = 0;
		int from = 0;
		for (int to = 0; to < sorted.size(); to++) {
			while (sorted.get(to) - sorted.get(from) >= 1000) {
				from++;
			}
			window = Math.max(window, to - from + 1);
		}
		return new int[] { (min == Integer.MAX_VALUE) ? 0 : min, max, window };
	}

}
