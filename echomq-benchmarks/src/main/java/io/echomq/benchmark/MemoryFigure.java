package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;

/**
 * Server memory per pending job with a {@value Payloads#SIZE}-byte payload: the
 * {@code used_memory} delta over the pre-fill, divided by the jobs; and its parts, a job
 * row ({@code MEMORY USAGE} of one row hash) and the pending index's share
 * ({@code MEMORY USAGE} of the pending sorted set per job). The rest is the main
 * dictionary's entry for each row key. The same per-job delta is also taken with 1 KB and
 * 10 KB payloads (a tenth of the jobs), since the row's layout depends on the payload's
 * size (see {@code RowPayload}).
 *
 * @author EchoMQ
 */
final class MemoryFigure extends Figure {

	private static final String QUEUE = "bench-memory";

	MemoryFigure() {
		super("memory", "memory.per_pending_job", "memory.row", "memory.pending_index_per_job",
				"memory.per_pending_job.1k", "memory.row.1k", "memory.per_pending_job.10k", "memory.row.10k");
	}

	@Override
	public List<Reading> run(RunContext context) {
		BenchServer server = context.server();
		int count = context.scale().memoryJobs();
		server.reset();
		Engine jobs = server.newEngine();
		long before = server.usedMemory();
		Probes.prefill(jobs, QUEUE, count);
		long after = server.usedMemory();
		String pending = jobs.keyspace().queueKey(QUEUE, KeyType.PENDING.suffix());
		String first = jobs.executor().getTemplate().opsForZSet().range(pending, 0, 0).iterator().next();
		long row = server.memoryUsage(jobs.keyspace().jobKey(QUEUE, JobId.parse(first)));
		long index = server.memoryUsage(pending);
		server.reset();
		List<Reading> readings = new ArrayList<>(
				List.of(new Reading("memory.per_pending_job", (double) (after - before) / count, "bytes/job"),
						new Reading("memory.row", row, "bytes"),
						new Reading("memory.pending_index_per_job", (double) index / count, "bytes/job")));
		readings.addAll(sized(server, Math.max(1, count / 10), 1024, "1k"));
		readings.addAll(sized(server, Math.max(1, count / 10), 10240, "10k"));
		return readings;
	}

	private static List<Reading> sized(BenchServer server, int count, int size, String suffix) {
		Engine jobs = server.newEngine();
		long before = server.usedMemory();
		Probes.prefill(jobs, QUEUE, count, "{\"pad\":\"" + "x".repeat(size - 10) + "\"}");
		long after = server.usedMemory();
		String pending = jobs.keyspace().queueKey(QUEUE, KeyType.PENDING.suffix());
		String first = jobs.executor().getTemplate().opsForZSet().range(pending, 0, 0).iterator().next();
		long row = server.memoryUsage(jobs.keyspace().jobKey(QUEUE, JobId.parse(first)));
		server.reset();
		return List.of(new Reading("memory.per_pending_job." + suffix, (double) (after - before) / count, "bytes/job"),
				new Reading("memory.row." + suffix, row, "bytes"));
	}

}
