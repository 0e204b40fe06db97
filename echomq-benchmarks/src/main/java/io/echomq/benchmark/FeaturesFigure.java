package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.Retention;
import io.echomq.core.UniqueKey;
import io.echomq.core.internal.Engine;

/**
 * What each feature of the flow-control and history work costs per job: the drain
 * figure's drain (50,000 pre-filled jobs, no-op handlers, listeners at c16) on the plain
 * path and with one feature on at a time, each measured as the drain figure measures:
 * <ul>
 * <li>{@code lanes}: the jobs spread over 100 fair lanes;</li>
 * <li>{@code limits}: a cap on active jobs and a rate limit, both far above what the
 * drain reaches (the cost of checking them, and of the rate limiter's log);</li>
 * <li>{@code unique}: every job enqueued with its own unique key
 * ({@code until_done});</li>
 * <li>{@code retention}: the queue keeps its last 1,000 completed jobs;</li>
 * <li>{@code partitions}: the queue split into 4 partitions (on the one server).</li>
 * </ul>
 * Each variant prints jobs/s, JVM and server CPU per job, server commands per job, and
 * its server CPU per job over the plain path's.
 *
 * @author EchoMQ
 */
final class FeaturesFigure extends Figure {

	private static final int CONCURRENCY = 16;

	private static final int LANES = 100;

	private static final int PARTITIONS = 4;

	private static final String QUEUE = "bench-features";

	private static final List<String> VARIANTS = List.of("plain", "lanes", "limits", "unique", "retention",
			"partitions");

	FeaturesFigure() {
		super("features");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (String variant : VARIANTS) {
			String base = "features." + variant + ".c" + CONCURRENCY;
			names.add(base);
			addMetrics(names, base, "jvm_us_per_job", "server_us_per_job", "commands_per_job", "server_ratio");
		}
		return names;
	}

	@Override
	public void warmUp(RunContext context) {
		int jobs = Math.max(200, context.scale().drainJobs() / 10);
		for (String variant : VARIANTS) {
			drain(context, variant, jobs);
		}
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		double plainServer = 0;
		for (String variant : VARIANTS) {
			Drain drain = drain(context, variant, context.scale().drainJobs());
			if (variant.equals("plain")) {
				plainServer = drain.serverMicrosPerJob();
			}
			double ratio = (plainServer > 0) ? drain.serverMicrosPerJob() / plainServer : 0;
			String base = "features." + variant + ".c" + CONCURRENCY;
			readings.add(new Reading(base, drain.jobsPerSecond(), "jobs/s"));
			readings.add(new Reading(base + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".commands_per_job", drain.commandsPerJob(), "commands/job"));
			readings.add(new Reading(base + ".server_ratio", ratio, "ratio"));
			context.note(String.format(
					"%s %.0f jobs/s, JVM %.1f us/job, server %.1f us/job (%.2fx plain), %.2f commands/job", base,
					drain.jobsPerSecond(), drain.jvmMicrosPerJob(), drain.serverMicrosPerJob(), ratio,
					drain.commandsPerJob()));
		}
		return readings;
	}

	private static Drain drain(RunContext context, String variant, int jobs) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		long total = prefill(producer, variant, jobs);
		Drain drain = Drain.run(context, () -> new ListenerConsumers(server.newEngine(), (engine, factory) -> {
			switch (variant) {
				case "limits" -> factory.setQueueLimits(Map.of(QUEUE,
						new FlowLimits(1_000_000, new FlowLimits.RateLimit(10_000_000, Duration.ofSeconds(1)))));
				case "retention" -> engine.upkeep().retain(QUEUE, Retention.ofCount(1_000), Retention.DEAD_DEFAULT);
				case "partitions" -> factory.setPartitioning(partitioning());
				default -> {
				}
			}
		}), List.of(QUEUE), CONCURRENCY, total);
		server.reset();
		return drain;
	}

	private static long prefill(Engine producer, String variant, int jobs) {
		switch (variant) {
			case "lanes" -> {
				int perLane = Math.max(1, jobs / LANES);
				List<String> payloads = Payloads.plain(perLane);
				for (int lane = 0; lane < LANES; lane++) {
					producer.enqueues().enqueueAll(QUEUE, payloads, EnqueueSpec.defaults().withLane("lane-" + lane));
				}
				return (long) perLane * LANES;
			}
			case "unique" -> {
				String payload = Payloads.plain();
				for (int i = 0; i < jobs; i++) {
					producer.enqueues()
						.enqueueUnique(QUEUE, JobId.mint(), payload,
								EnqueueSpec.defaults().withUnique(UniqueKey.untilDone("key-" + i)));
				}
				return jobs;
			}
			case "partitions" -> {
				List<String> names = partitioning().forQueue(QUEUE).names();
				int each = Math.max(1, jobs / names.size());
				for (String name : names) {
					Probes.prefill(producer, name, each);
				}
				return (long) each * names.size();
			}
			default -> {
				Probes.prefill(producer, QUEUE, jobs);
				return jobs;
			}
		}
	}

	private static QueuePartitioning partitioning() {
		return QueuePartitioning.of(Map.of(QUEUE, PARTITIONS));
	}

}
