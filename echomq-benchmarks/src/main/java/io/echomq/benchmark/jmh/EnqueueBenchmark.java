package io.echomq.benchmark.jmh;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.echomq.benchmark.BenchServer;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.test.server.ServerFlavor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Enqueue on a server the benchmark starts: one job per call, and {@value #BATCH} per
 * {@code enqueueAll} call (reported per job). Run with {@code -t 16} to see the calls of
 * many threads pipelined on the shared connection. The server is flushed before every
 * iteration.
 *
 * @author EchoMQ
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class EnqueueBenchmark {

	static final int BATCH = 100;

	private static final String QUEUE = "jmh-enqueue";

	/** The server flavor: {@code valkey} or {@code redis}. */
	@Param("valkey")
	public String server;

	private BenchServer bench;

	private Engine jobs;

	private final String payload = "x".repeat(100);

	private final List<String> batch = Collections.nCopies(BATCH, this.payload);

	/**
	 * Start the server.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.bench = BenchServer.start(ServerFlavor.valueOf(this.server.toUpperCase(Locale.ROOT)));
		this.jobs = this.bench.newEngine();
	}

	/**
	 * Flush the server.
	 */
	@Setup(Level.Iteration)
	public void flush() {
		this.bench.reset();
	}

	/**
	 * Stop the server.
	 */
	@TearDown(Level.Trial)
	public void stop() {
		this.bench.close();
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
