package io.echomq.benchmark.jmh;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.echomq.benchmark.BenchServer;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Engine;
import io.echomq.test.server.ServerFlavor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One job's whole life at a constant queue depth, single-threaded: enqueue one, claim one
 * (the head), complete it. Three script calls per operation; the depth stays at
 * {@code depth} throughout.
 *
 * @author EchoMQ
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class CycleBenchmark {

	private static final String QUEUE = "jmh-cycle";

	private static final Duration LEASE = Duration.ofMinutes(5);

	/** The server flavor: {@code valkey} or {@code redis}. */
	@Param("valkey")
	public String server;

	/** The pending jobs kept in the queue. */
	@Param({ "1000", "100000" })
	public int depth;

	private BenchServer bench;

	private Engine jobs;

	private final String payload = "x".repeat(100);

	/**
	 * Start the server and fill the queue.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.bench = BenchServer.start(ServerFlavor.valueOf(this.server.toUpperCase(Locale.ROOT)));
		this.jobs = this.bench.newEngine();
		List<String> batch = Collections.nCopies(1000, this.payload);
		for (int done = 0; done < this.depth; done += batch.size()) {
			this.jobs.enqueues()
				.enqueueAll(QUEUE, batch.subList(0, Math.min(batch.size(), this.depth - done)), EnqueueSpec.defaults());
		}
	}

	/**
	 * Stop the server.
	 */
	@TearDown(Level.Trial)
	public void stop() {
		this.bench.close();
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
