package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.echomq.core.JobId;
import io.echomq.core.Retention;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import org.jspecify.annotations.Nullable;

/**
 * Server memory of stored results, run only when named ({@code --figures resultmemory}):
 * {@value #JOBS} jobs ({@code --smoke}: {@value #SMOKE_JOBS}) are claimed, then completed
 * one call at a time with no result ({@code void}) or with a result of
 * {@value JobCostFigure#RESULT_BYTES} bytes ({@code result100}), on a queue retaining its
 * last {@value #JOBS} completed jobs (the result is a field of the retained row) and on
 * one without retention (the result is a key of its own with the results' time to live,
 * the row is deleted). Each figure is the {@code used_memory} growth over the completions
 * per job; {@code per_result} is the {@code result100} growth less the {@code void} one;
 * {@code row} and {@code result_key} are {@code MEMORY USAGE} of one retained row and of
 * one result key.
 *
 * @author EchoMQ
 */
final class ResultMemoryFigure extends Figure {

	static final int JOBS = 10_000;

	static final int SMOKE_JOBS = 200;

	private static final String QUEUE = "bench-result-memory";

	private static final Duration LEASE = Duration.ofMinutes(5);

	private static final String RESULT = "\"" + JobCostFigure.Handlers.RESULT + "\"";

	ResultMemoryFigure() {
		super("resultmemory", "resultmemory.retained.void", "resultmemory.retained.result100",
				"resultmemory.retained.per_result", "resultmemory.retained.row.void",
				"resultmemory.retained.row.result100", "resultmemory.unretained.void",
				"resultmemory.unretained.result100", "resultmemory.unretained.per_result",
				"resultmemory.unretained.result_key");
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		int jobs = context.options().smoke() ? SMOKE_JOBS : JOBS;
		List<Reading> readings = new ArrayList<>();
		for (boolean retained : new boolean[] { true, false }) {
			String where = retained ? "resultmemory.retained" : "resultmemory.unretained";
			Grown none = complete(context, jobs, retained, null);
			Grown stored = complete(context, jobs, retained, RESULT);
			readings.add(new Reading(where + ".void", none.perJob(), "bytes/job"));
			readings.add(new Reading(where + ".result100", stored.perJob(), "bytes/job"));
			readings.add(new Reading(where + ".per_result", stored.perJob() - none.perJob(), "bytes/job"));
			if (retained) {
				readings.add(new Reading(where + ".row.void", none.sample(), "bytes"));
				readings.add(new Reading(where + ".row.result100", stored.sample(), "bytes"));
			}
			else {
				readings.add(new Reading(where + ".result_key", stored.sample(), "bytes"));
			}
			context.note(String.format(
					"%s: %,d jobs, used_memory per job %.0f without a result, %.0f with; "
							+ "MEMORY USAGE sample %d / %d bytes",
					where, jobs, none.perJob(), stored.perJob(), none.sample(), stored.sample()));
		}
		return readings;
	}

	/**
	 * Growth of {@code used_memory} per completed job, and {@code MEMORY USAGE} of a
	 * retained row (retained) or a result key (not retained; 0 without a result).
	 */
	private record Grown(double perJob, long sample) {
	}

	private static Grown complete(RunContext context, int count, boolean retained, @Nullable String result) {
		BenchServer server = context.server();
		server.reset();
		Engine jobs = server.newEngine();
		if (retained) {
			jobs.upkeep().retain(QUEUE, Retention.ofCount(count), Retention.DEAD_DEFAULT);
		}
		Probes.prefill(jobs, QUEUE, count);
		List<ClaimedJob> claimed = new ArrayList<>(count);
		while (claimed.size() < count) {
			List<ClaimedJob> more = jobs.claims().claim(QUEUE, LEASE, Math.min(1_000, count - claimed.size()));
			if (more.isEmpty()) {
				throw new IllegalStateException("pending ran dry after " + claimed.size() + " claims");
			}
			claimed.addAll(more);
		}
		long before = server.usedMemory();
		for (ClaimedJob job : claimed) {
			jobs.outcomes().complete(QUEUE, job.id(), job.token(), null, result);
		}
		long after = server.usedMemory();
		JobId last = claimed.get(claimed.size() - 1).id();
		String key = retained ? jobs.keyspace().jobKey(QUEUE, last) : jobs.keyspace().resultKey(QUEUE, last);
		long sample = (retained || result != null) ? server.memoryUsage(key) : 0;
		server.reset();
		return new Grown((double) (after - before) / count, sample);
	}

}
