package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.echomq.core.JobId;
import io.echomq.core.Retention;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import org.jspecify.annotations.Nullable;

/**
 * What job history costs. First the state bytes of one retained job: the
 * {@code used_memory} delta over 1,000 retained completions, a retained row
 * ({@code MEMORY USAGE}) and the completed index's share per job. Then the complete
 * script's server time per call on a queue without retention and on one with retention
 * {@code count=1000} (full, so every call also trims), one thread, one call at a time, 10
 * batches of 1,000 each, alternating batch by batch. Last, a queue with retention
 * {@code count=1000} completes {@code --retention-completions} jobs (enqueued 1,000 at a
 * time, completed by 4 threads) while {@code used_memory} and the size of completed are
 * sampled 20 times: the growth from the first sample to the highest shows whether memory
 * stays flat.
 *
 * @author EchoMQ
 */
final class RetentionFigure extends Figure {

	private static final String QUEUE = "bench-retention";

	private static final String PLAIN_QUEUE = "bench-retention-none";

	private static final Duration LEASE = Duration.ofMinutes(5);

	private static final int KEPT = 1_000;

	private static final int BATCH = 1_000;

	private static final int THREADS = 4;

	private static final int SAMPLES = 20;

	RetentionFigure() {
		super("retention", "retention.complete.script_us.none", "retention.complete.script_us.count1000",
				"retention.memory_per_retained_job", "retention.row", "retention.completed_index_per_job",
				"retention.used_memory.first_sample", "retention.used_memory.growth_max",
				"retention.used_memory.last_sample", "retention.completed.max", "retention.keys.last_sample",
				"retention.completions");
	}

	@Override
	public void warmUp(RunContext context) throws Exception {
		BenchServer server = context.server();
		server.reset();
		Engine jobs = server.newEngine();
		jobs.upkeep().retain(QUEUE, Retention.ofCount(KEPT), Retention.DEAD_DEFAULT);
		for (int i = 0; i < 5; i++) {
			completeBatch(jobs, QUEUE, null);
		}
		server.reset();
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		BenchServer server = context.server();
		List<Reading> readings = new ArrayList<>();
		server.reset();
		Engine jobs = server.newEngine();
		jobs.upkeep().retain(QUEUE, Retention.ofCount(KEPT), Retention.DEAD_DEFAULT);
		long empty = server.usedMemory();
		completeBatch(jobs, QUEUE, null);
		long full = server.usedMemory();
		String completed = jobs.keyspace().queueKey(QUEUE, KeyType.COMPLETED.suffix());
		String first = jobs.executor().getTemplate().opsForZSet().range(completed, 0, 0).iterator().next();
		readings.add(new Reading("retention.memory_per_retained_job", (double) (full - empty) / KEPT, "bytes/job"));
		readings.add(new Reading("retention.row", server.memoryUsage(jobs.keyspace().jobKey(QUEUE, JobId.parse(first))),
				"bytes"));
		readings.add(new Reading("retention.completed_index_per_job", (double) server.memoryUsage(completed) / KEPT,
				"bytes/job"));
		// alternate batch by batch, so that both see the same load from other processes
		long[] plain = new long[2];
		long[] retained = new long[2];
		for (int round = 0; round < 10; round++) {
			scriptMicros(server, jobs, PLAIN_QUEUE, plain);
			scriptMicros(server, jobs, QUEUE, retained);
		}
		double none = (double) plain[0] / Math.max(1, plain[1]);
		double kept = (double) retained[0] / Math.max(1, retained[1]);
		readings.add(new Reading("retention.complete.script_us.none", none, "us/call"));
		readings.add(new Reading("retention.complete.script_us.count1000", kept, "us/call"));
		context.note(String.format("retention: complete script %.1f us/call without, %.1f us/call with count=1000",
				none, kept));

		int completions = context.options().retentionCompletions();
		int batches = Math.max(1, completions / BATCH);
		int every = Math.max(1, batches / SAMPLES);
		long firstSample = -1;
		long highest = 0;
		long lastSample = 0;
		long largest = 0;
		long start = System.nanoTime();
		ExecutorService pool = Executors.newFixedThreadPool(THREADS);
		try {
			for (int batch = 1; batch <= batches; batch++) {
				completeBatch(jobs, QUEUE, pool);
				if (batch % every == 0 || batch == batches) {
					long used = server.usedMemory();
					Long size = jobs.executor().getTemplate().opsForZSet().size(completed);
					largest = Math.max(largest, (size != null) ? size : 0);
					if (firstSample < 0) {
						firstSample = used;
					}
					highest = Math.max(highest, used);
					lastSample = used;
					context.note(String.format("retention: %,d completions, used_memory %,d bytes, completed %d",
							batch * BATCH, used, size));
				}
			}
		}
		finally {
			pool.shutdownNow();
		}
		double seconds = (System.nanoTime() - start) / 1e9;
		readings.add(new Reading("retention.used_memory.first_sample", firstSample, "bytes"));
		readings.add(new Reading("retention.used_memory.growth_max", highest - firstSample, "bytes"));
		readings.add(new Reading("retention.used_memory.last_sample", lastSample, "bytes"));
		readings.add(new Reading("retention.completed.max", largest, "jobs"));
		Object keys = server.command("DBSIZE");
		readings.add(new Reading("retention.keys.last_sample", (keys instanceof Long count) ? count : -1, "keys"));
		readings.add(new Reading("retention.completions", (double) batches * BATCH, "jobs"));
		context.note(String.format("retention: %,d completions in %.0f s", batches * BATCH, seconds));
		server.reset();
		return readings;
	}

	/**
	 * Complete one batch of a queue one call at a time and add the complete script's
	 * server time and calls to {@code totals}.
	 */
	private static void scriptMicros(BenchServer server, Engine jobs, String queue, long[] totals) {
		List<ClaimedJob> claimed = claimBatch(jobs, queue);
		server.resetStats();
		for (ClaimedJob job : claimed) {
			jobs.outcomes().complete(queue, job.id(), job.token());
		}
		CommandStats stats = server.commandStats();
		totals[0] += stats.scriptUsec();
		totals[1] += stats.scriptCalls();
	}

	private static void completeBatch(Engine jobs, String queue, @Nullable ExecutorService pool) throws Exception {
		List<ClaimedJob> claimed = claimBatch(jobs, queue);
		if (pool == null) {
			for (ClaimedJob job : claimed) {
				jobs.outcomes().complete(queue, job.id(), job.token());
			}
			return;
		}
		List<Future<?>> done = new ArrayList<>(THREADS);
		for (int t = 0; t < THREADS; t++) {
			int from = t;
			done.add(pool.submit(() -> {
				for (int i = from; i < claimed.size(); i += THREADS) {
					ClaimedJob job = claimed.get(i);
					jobs.outcomes().complete(queue, job.id(), job.token());
				}
			}));
		}
		for (Future<?> future : done) {
			future.get();
		}
	}

	private static List<ClaimedJob> claimBatch(Engine jobs, String queue) {
		Probes.prefill(jobs, queue, BATCH);
		List<ClaimedJob> claimed = new ArrayList<>(BATCH);
		while (claimed.size() < BATCH) {
			List<ClaimedJob> more = jobs.claims().claim(queue, LEASE, BATCH - claimed.size());
			if (more.isEmpty()) {
				throw new IllegalStateException("pending ran dry after " + claimed.size() + " claims");
			}
			claimed.addAll(more);
		}
		return claimed;
	}

}
