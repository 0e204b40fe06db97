package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import org.jspecify.annotations.Nullable;

/**
 * Awaiting results ({@code Waiters}, docs/results.md "Awaiting a result"), run only when
 * named:
 * <ul>
 * <li>{@code await.latency}: from the handler's return to the awaiting future's
 * completion, one job at a time, the listener at concurrency 1. The waiter is a second
 * engine (its own connections and Pub/Sub subscription) in the same JVM as the listener,
 * so the figure holds the completion script, the publish, the delivery and the read of
 * the result, not a second JVM's clock.</li>
 * <li>{@code await.drain}: the listener drains {@value #AWAITERS} pre-filled jobs
 * ({@code --smoke}: as many as the smoke drain) at concurrency {@value #CONCURRENCY},
 * once with nobody awaiting and once with every job awaited by a future of the waiter's
 * engine, registered before the drain starts; jobs/s and CPU per job on both sides. The
 * JVM figure holds both engines (this JVM runs the listener and the waiters).</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class AwaitFigure extends Figure {

	static final int AWAITERS = 1_000;

	static final int CONCURRENCY = 8;

	private static final int LATENCY_SAMPLES = 500;

	private static final int SMOKE_LATENCY_SAMPLES = 20;

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String QUEUE = "bench-await";

	AwaitFigure() {
		super("await");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>(List.of("await.latency.p50", "await.latency.p99", "await.latency.max"));
		for (String base : List.of("await.drain.none", "await.drain.awaited")) {
			names.add(base);
			addMetrics(names, base, "server_us_per_job", "jvm_us_per_job", "round_trips_per_job");
		}
		return names;
	}

	@Override
	public void warmUp(RunContext context) throws Exception {
		latency(context, SMOKE_LATENCY_SAMPLES);
		drain(context, Math.min(200, jobs(context)), false);
		drain(context, Math.min(200, jobs(context)), true);
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		List<Reading> readings = new ArrayList<>();
		Samples samples = latency(context, context.options().smoke() ? SMOKE_LATENCY_SAMPLES : LATENCY_SAMPLES);
		readings.add(new Reading("await.latency.p50", samples.percentile(50) / 1e6, "ms"));
		readings.add(new Reading("await.latency.p99", samples.percentile(99) / 1e6, "ms"));
		readings.add(new Reading("await.latency.max", samples.max() / 1e6, "ms"));
		context.note(String.format(
				"await.latency %d samples (handler return -> future done, same JVM), p50 %.3f ms, "
						+ "p99 %.3f ms, max %.3f ms",
				samples.size(), samples.percentile(50) / 1e6, samples.percentile(99) / 1e6, samples.max() / 1e6));
		int jobs = jobs(context);
		for (boolean awaited : new boolean[] { false, true }) {
			Drain drain = drain(context, jobs, awaited);
			String base = awaited ? "await.drain.awaited" : "await.drain.none";
			readings.add(new Reading(base, drain.jobsPerSecond(), "jobs/s"));
			readings.add(new Reading(base + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".round_trips_per_job", drain.roundTripsPerJob(), "commands/job"));
			context.note(String.format(
					"%s %d jobs at concurrency %d: %.0f jobs/s, server %.1f us/job, JVM %.1f us/job, "
							+ "%.2f round trips/job",
					base, jobs, CONCURRENCY, drain.jobsPerSecond(), drain.serverMicrosPerJob(), drain.jvmMicrosPerJob(),
					drain.roundTripsPerJob()));
		}
		return readings;
	}

	private static int jobs(RunContext context) {
		return context.options().smoke() ? context.scale().drainJobs() : AWAITERS;
	}

	/**
	 * Enqueue one job at a time, await it from the waiter engine, and time the handler's
	 * return to the future's completion.
	 */
	private static Samples latency(RunContext context, int count) throws Exception {
		BenchServer server = context.server();
		server.reset();
		Map<String, Long> returnedAt = new ConcurrentHashMap<>();
		Engine waiter = server.newEngine();
		Engine producer = server.newEngine();
		Samples samples = new Samples();
		try (Consumers consumers = new ListenerConsumers(server.newEngine())) {
			consumers.start(QUEUE, 1, (payload) -> returnedAt.put(payload, System.nanoTime()));
			for (int i = 0; i < count; i++) {
				String payload = "\"await-" + i + "\"";
				JobId id = producer.enqueues().enqueue(QUEUE, payload, EnqueueSpec.defaults());
				CompletableFuture<Long> doneAt = waiter.waiters()
					.await(QUEUE, id, WAIT)
					.handle((value, ex) -> System.nanoTime());
				long done = doneAt.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				Long returned = returnedAt.remove(payload);
				if (returned == null) {
					throw new IllegalStateException("The future of " + id + " completed before its handler ran");
				}
				samples.add(done - returned);
			}
		}
		finally {
			waiter.close();
			producer.close();
			server.reset();
		}
		return samples;
	}

	/**
	 * Consumers whose jobs count as done once completed and, when awaited, once every
	 * future of the waiter settled: the drain's time and CPU then hold the waiters' work.
	 */
	private record Settled(Consumers consumers, @Nullable AtomicLong settled) implements Consumers {

		@Override
		public void start(String queue, int concurrency, BenchHandler handler) {
			this.consumers.start(queue, concurrency, handler);
		}

		@Override
		public long completed() {
			long completed = this.consumers.completed();
			return (this.settled != null) ? Math.min(completed, this.settled.get()) : completed;
		}

		@Override
		public void close() {
			this.consumers.close();
		}

	}

	private static Drain drain(RunContext context, int jobs, boolean awaited) throws Exception {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		Engine waiter = server.newEngine();
		try {
			List<String> payloads = java.util.Collections.nCopies(jobs, Payloads.plain());
			List<JobId> ids = new ArrayList<>(jobs);
			for (int start = 0; start < jobs; start += Engine.ENQUEUE_CHUNK) {
				ids.addAll(producer.enqueues()
					.enqueueAll(QUEUE, payloads.subList(start, Math.min(jobs, start + Engine.ENQUEUE_CHUNK)),
							EnqueueSpec.defaults()));
			}
			List<CompletableFuture<?>> futures = new ArrayList<>();
			AtomicLong settled = new AtomicLong();
			if (awaited) {
				for (JobId id : ids) {
					futures.add(waiter.waiters().await(QUEUE, id, WAIT).whenComplete((value, ex) -> {
						if (ex == null) {
							settled.incrementAndGet();
						}
					}));
				}
			}
			Drain drain = Drain.run(context,
					() -> new Settled(new ListenerConsumers(server.newEngine()), awaited ? settled : null),
					List.of(QUEUE), CONCURRENCY, jobs);
			CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
			return drain;
		}
		finally {
			waiter.close();
			producer.close();
			server.reset();
		}
	}

}
