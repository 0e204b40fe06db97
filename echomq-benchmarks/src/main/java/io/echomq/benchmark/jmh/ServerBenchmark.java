package io.echomq.benchmark.jmh;

import java.util.Locale;

import io.echomq.benchmark.BenchServer;
import io.echomq.core.internal.Engine;
import io.echomq.test.server.ServerFlavor;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A benchmark on a server it starts for the trial, with an engine on it; its subclasses
 * choose the mode and the unit. JMH reads these annotations through the subclasses.
 *
 * @author EchoMQ
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public abstract class ServerBenchmark {

	/** The server flavor: {@code valkey} or {@code redis}. */
	@Param("valkey")
	public String server;

	/** The payload of every job: 100 characters. */
	final String payload = "x".repeat(100);

	BenchServer bench;

	Engine jobs;

	/**
	 * Start the server, then {@linkplain #prepare() prepare} the trial.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.bench = BenchServer.start(ServerFlavor.valueOf(this.server.toUpperCase(Locale.ROOT)));
		this.jobs = this.bench.newEngine();
		prepare();
	}

	/**
	 * Prepare the trial once the server is up; nothing by default.
	 */
	void prepare() {
	}

	/**
	 * Stop the server.
	 */
	@TearDown(Level.Trial)
	public void stop() {
		this.bench.close();
	}

}
