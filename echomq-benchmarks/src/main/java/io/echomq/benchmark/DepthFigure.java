package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;

/**
 * How cost grows with queue depth. For each depth {@code D} the queue is pre-filled with
 * {@code D} jobs (the server memory per job is taken there), then, one thread calling one
 * verb at a time, {@code M = min(ops, D/2)} claims of one job each (the depth falls from
 * {@code D} to {@code D - M}), {@code M} completes, and {@code M} enqueues (back to
 * {@code D}): the call latency (p50) and the server's time per script call of each. Last,
 * {@code K} jobs are added and drained by the first consumer kind at concurrency 16 (the
 * depth falls from {@code D + K} back to {@code D}).
 *
 * @author EchoMQ
 */
final class DepthFigure extends Figure {

	private static final String QUEUE = "bench-depth";

	private static final Duration LEASE = Duration.ofMinutes(5);

	private static final int DRAIN_CONCURRENCY = 16;

	DepthFigure() {
		super("depth");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		String kind = options.primaryConsumer().label();
		for (int depth : options.depths()) {
			String base = "depth.d" + depth;
			addMetrics(names, base, "memory_per_job", "claim.p50", "claim.script_us", "complete.p50",
					"complete.script_us", "enqueue", "enqueue.p50", "enqueue.script_us");
			String drain = base + "." + kind + ".drain.c" + DRAIN_CONCURRENCY;
			names.add(drain);
			addMetrics(names, drain, "jvm_us_per_job", "server_us_per_job");
		}
		return names;
	}

	@Override
	public void warmUp(RunContext context) {
		atDepth(context, Math.min(10_000, context.options().depths().get(0)));
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		for (int depth : context.options().depths()) {
			readings.addAll(atDepth(context, depth));
		}
		return readings;
	}

	private static List<Reading> atDepth(RunContext context, int depth) {
		BenchServer server = context.server();
		Engine jobs = server.newEngine();
		String base = "depth.d" + depth;
		List<Reading> readings = new ArrayList<>();
		server.reset();
		long before = server.usedMemory();
		Probes.prefill(jobs, QUEUE, depth);
		readings
			.add(new Reading(base + ".memory_per_job", (double) (server.usedMemory() - before) / depth, "bytes/job"));
		int ops = Math.max(1, Math.min(context.scale().depthOps(), depth / 2));

		Samples claimSamples = new Samples();
		List<ClaimedJob> claimed = new ArrayList<>(ops);
		server.resetStats();
		for (int i = 0; i < ops; i++) {
			long start = System.nanoTime();
			claimed.addAll(jobs.claims().claim(QUEUE, LEASE, 1));
			claimSamples.add(System.nanoTime() - start);
		}
		CommandStats claimStats = server.commandStats();
		readings.add(new Reading(base + ".claim.p50", claimSamples.percentile(50) / 1e3, "us"));
		readings.add(new Reading(base + ".claim.script_us", perCall(claimStats), "us/call"));

		Samples completeSamples = new Samples();
		server.resetStats();
		for (ClaimedJob job : claimed) {
			long start = System.nanoTime();
			jobs.outcomes().complete(QUEUE, job.id(), job.token());
			completeSamples.add(System.nanoTime() - start);
		}
		CommandStats completeStats = server.commandStats();
		readings.add(new Reading(base + ".complete.p50", completeSamples.percentile(50) / 1e3, "us"));
		readings.add(new Reading(base + ".complete.script_us", perCall(completeStats), "us/call"));

		Samples enqueueSamples = new Samples();
		String payload = Payloads.plain();
		EnqueueSpec spec = EnqueueSpec.defaults();
		server.resetStats();
		long enqueueStart = System.nanoTime();
		for (int i = 0; i < claimed.size(); i++) {
			long start = System.nanoTime();
			jobs.enqueues().enqueue(QUEUE, payload, spec);
			enqueueSamples.add(System.nanoTime() - start);
		}
		long enqueueElapsed = System.nanoTime() - enqueueStart;
		CommandStats enqueueStats = server.commandStats();
		readings.add(new Reading(base + ".enqueue", claimed.size() * 1e9 / enqueueElapsed, "jobs/s"));
		readings.add(new Reading(base + ".enqueue.p50", enqueueSamples.percentile(50) / 1e3, "us"));
		readings.add(new Reading(base + ".enqueue.script_us", perCall(enqueueStats), "us/call"));

		int drainJobs = context.scale().depthDrainJobs();
		Probes.prefill(jobs, QUEUE, drainJobs);
		ConsumerKind kind = context.options().primaryConsumer();
		Drain drain = Drain.run(context, kind, List.of(QUEUE), DRAIN_CONCURRENCY, drainJobs);
		String drainBase = base + "." + kind.label() + ".drain.c" + DRAIN_CONCURRENCY;
		readings.add(new Reading(drainBase, drain.jobsPerSecond(), "jobs/s"));
		readings.add(new Reading(drainBase + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
		readings.add(new Reading(drainBase + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
		context.note(String.format("%s claim p50 %.1f us (script %.1f us), enqueue p50 %.1f us, drain %.0f jobs/s",
				base, claimSamples.percentile(50) / 1e3, perCall(claimStats), enqueueSamples.percentile(50) / 1e3,
				drain.jobsPerSecond()));
		server.reset();
		return readings;
	}

	private static double perCall(CommandStats stats) {
		return (double) stats.scriptUsec() / Math.max(1, stats.scriptCalls());
	}

}
