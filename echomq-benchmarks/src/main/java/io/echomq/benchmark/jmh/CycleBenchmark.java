package io.echomq.benchmark.jmh;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.TransitionResult;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * One job's whole life at a constant queue depth, single-threaded: enqueue one, claim one
 * (the head), complete it. Three script calls per operation; the depth stays at
 * {@code depth} throughout.
 *
 * @author EchoMQ
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CycleBenchmark extends ServerBenchmark {

	private static final String QUEUE = "jmh-cycle";

	private static final Duration LEASE = Duration.ofMinutes(5);

	/** The pending jobs kept in the queue. */
	@Param({ "1000", "100000" })
	public int depth;

	/**
	 * Fill the queue.
	 */
	@Override
	void prepare() {
		List<String> batch = Collections.nCopies(1000, this.payload);
		for (int done = 0; done < this.depth; done += batch.size()) {
			this.jobs.enqueues()
				.enqueueAll(QUEUE, batch.subList(0, Math.min(batch.size(), this.depth - done)), EnqueueSpec.defaults());
		}
	}

	/**
	 * Enqueue, claim and complete one job.
	 * @return the outcome of the complete
	 */
	@Benchmark
	public TransitionResult cycle() {
		this.jobs.enqueues().enqueue(QUEUE, this.payload, EnqueueSpec.defaults());
		ClaimedJob job = this.jobs.claims().claim(QUEUE, LEASE, 1).get(0);
		return this.jobs.outcomes().complete(QUEUE, job.id(), job.token());
	}

}
