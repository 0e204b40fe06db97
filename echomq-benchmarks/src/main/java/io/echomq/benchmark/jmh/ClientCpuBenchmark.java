package io.echomq.benchmark.jmh;

import java.util.concurrent.TimeUnit;

import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Client-side CPU of the engine's per-job helpers, no server: minting an id, parsing one
 * (which {@code claim} does for every candidate, hint and reply), and building a row key
 * from an id's text (which validates the queue name and parses the id again).
 *
 * @author EchoMQ
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ClientCpuBenchmark {

	private final Keyspace keyspace = Keyspace.defaults();

	private final String id = JobId.mint().toString();

	/**
	 * Mint an id.
	 * @return the id
	 */
	@Benchmark
	public JobId mint() {
		return JobId.mint();
	}

	/**
	 * Parse an id.
	 * @return the id
	 */
	@Benchmark
	public JobId parse() {
		return JobId.parse(this.id);
	}

	/**
	 * Build a row key from an id's text.
	 * @return the key
	 */
	@Benchmark
	public String rowKeyFromText() {
		return this.keyspace.jobKey("bench", this.id);
	}

}
