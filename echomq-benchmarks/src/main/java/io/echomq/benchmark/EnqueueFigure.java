package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;

/**
 * Enqueue throughput three ways: one thread calling {@code enqueue} in a loop (also its
 * call latency and the server's cost per script call), {@value #THREADS} threads calling
 * it at once on the one shared Lettuce connection (so the commands are pipelined on the
 * wire), and {@code enqueueAll} with {@value #BATCH} payloads per call.
 *
 * @author EchoMQ
 */
final class EnqueueFigure extends Figure {

	static final int THREADS = 16;

	static final int BATCH = 1_000;

	private static final String QUEUE = "bench-enqueue";

	EnqueueFigure() {
		super("enqueue", "enqueue.sequential", "enqueue.sequential.jvm_us_per_job",
				"enqueue.sequential.server_us_per_job", "enqueue.sequential.p50", "enqueue.sequential.p99",
				"enqueue.sequential.script_us", "enqueue.pipelined", "enqueue.pipelined.jvm_us_per_job",
				"enqueue.pipelined.server_us_per_job", "enqueue.all", "enqueue.all.jvm_us_per_job",
				"enqueue.all.server_us_per_job");
	}

	@Override
	public void warmUp(RunContext context) throws Exception {
		int jobs = Math.max(50, context.scale().enqueueJobs() / 4);
		context.server().reset();
		sequential(context.server().newEngine(), jobs, new Samples());
		pipelined(context.server().newEngine(), jobs);
		all(context.server().newEngine(), jobs);
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		BenchServer server = context.server();
		Scale scale = context.scale();
		List<Reading> readings = new ArrayList<>();
		server.reset();
		Samples samples = new Samples();
		Engine sequentialJobs = server.newEngine();
		CpuMeter meter = CpuMeter.start(server);
		double sequential = sequential(sequentialJobs, scale.enqueueJobs(), samples);
		CpuMeter.PerJob cost = meter.perJob(scale.enqueueJobs());
		CommandStats stats = server.commandStats();
		readings.add(new Reading("enqueue.sequential", sequential, "jobs/s"));
		perJob(readings, "enqueue.sequential", cost);
		readings.add(new Reading("enqueue.sequential.p50", samples.percentile(50) / 1e3, "us"));
		readings.add(new Reading("enqueue.sequential.p99", samples.percentile(99) / 1e3, "us"));
		readings.add(new Reading("enqueue.sequential.script_us",
				(double) stats.scriptUsec() / Math.max(1, stats.scriptCalls()), "us/call"));
		server.reset();
		Engine pipelinedJobs = server.newEngine();
		meter = CpuMeter.start(server);
		readings
			.add(new Reading("enqueue.pipelined", pipelined(pipelinedJobs, scale.enqueuePipelinedJobs()), "jobs/s"));
		perJob(readings, "enqueue.pipelined", meter.perJob(scale.enqueuePipelinedJobs()));
		server.reset();
		Engine allJobs = server.newEngine();
		meter = CpuMeter.start(server);
		readings.add(new Reading("enqueue.all", all(allJobs, scale.enqueueAllJobs()), "jobs/s"));
		perJob(readings, "enqueue.all", meter.perJob(scale.enqueueAllJobs()));
		server.reset();
		return readings;
	}

	private static void perJob(List<Reading> readings, String base, CpuMeter.PerJob cost) {
		readings.add(new Reading(base + ".jvm_us_per_job", cost.jvmMicros(), "us/job"));
		readings.add(new Reading(base + ".server_us_per_job", cost.serverMicros(), "us/job"));
	}

	private static double sequential(Engine jobs, int count, Samples samples) {
		String payload = Payloads.plain();
		EnqueueSpec spec = EnqueueSpec.defaults();
		long start = System.nanoTime();
		for (int i = 0; i < count; i++) {
			long before = System.nanoTime();
			jobs.enqueues().enqueue(QUEUE, payload, spec);
			samples.add(System.nanoTime() - before);
		}
		return count * 1e9 / (System.nanoTime() - start);
	}

	private static double pipelined(Engine jobs, int count) throws Exception {
		String payload = Payloads.plain();
		EnqueueSpec spec = EnqueueSpec.defaults();
		ExecutorService pool = Executors.newFixedThreadPool(THREADS);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				int share = count / THREADS + ((t < count % THREADS) ? 1 : 0);
				done.add(pool.submit(() -> {
					go.await();
					for (int i = 0; i < share; i++) {
						jobs.enqueues().enqueue(QUEUE, payload, spec);
					}
					return null;
				}));
			}
			long start = System.nanoTime();
			go.countDown();
			for (Future<?> future : done) {
				future.get();
			}
			return count * 1e9 / (System.nanoTime() - start);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static double all(Engine jobs, int count) {
		List<String> batch = Payloads.plain(BATCH);
		EnqueueSpec spec = EnqueueSpec.defaults();
		long start = System.nanoTime();
		int done = 0;
		while (done < count) {
			int size = Math.min(BATCH, count - done);
			jobs.enqueues().enqueueAll(QUEUE, (size == BATCH) ? batch : batch.subList(0, size), spec);
			done += size;
		}
		return count * 1e9 / (System.nanoTime() - start);
	}

}
