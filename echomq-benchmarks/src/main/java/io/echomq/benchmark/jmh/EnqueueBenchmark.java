package io.echomq.benchmark.jmh;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.JobId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * Enqueue on a server the benchmark starts: one job per call, and {@value #BATCH} per
 * {@code enqueueAll} call (reported per job). Run with {@code -t 16} to see the calls of
 * many threads pipelined on the shared connection. The server is flushed before every
 * iteration.
 *
 * @author EchoMQ
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EnqueueBenchmark extends ServerBenchmark {

	static final int BATCH = 100;

	private static final String QUEUE = "jmh-enqueue";

	private final List<String> batch = Collections.nCopies(BATCH, this.payload);

	/**
	 * Flush the server.
	 */
	@Setup(Level.Iteration)
	public void flush() {
		this.bench.reset();
	}

	/**
	 * Enqueue one job.
	 * @return its id
	 */
	@Benchmark
	public JobId enqueue() {
		return this.jobs.enqueues().enqueue(QUEUE, this.payload, EnqueueSpec.defaults());
	}

	/**
	 * Enqueue {@value #BATCH} jobs in one call.
	 * @return their ids
	 */
	@Benchmark
	@OperationsPerInvocation(BATCH)
	public List<JobId> enqueueAll() {
		return this.jobs.enqueues().enqueueAll(QUEUE, this.batch, EnqueueSpec.defaults());
	}

}
