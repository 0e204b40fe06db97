package io.echomq.benchmark;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;

/**
 * Enqueue-to-handler latency at a fixed rate with idle workers: one producer thread
 * enqueues a job every {@code 1/rate} seconds, round robin over the queues, with
 * {@link System#nanoTime()} at the enqueue call in the payload; the handler takes
 * {@code System.nanoTime()} at entry. Same JVM, so the clocks agree.
 *
 * @author EchoMQ
 */
final class Latency {

	/** The producer's rate, jobs per second. */
	static final int RATE = 200;

	private static final long DRAIN_TIMEOUT_SECONDS = 30;

	private Latency() {
	}

	/**
	 * Measure.
	 * @param context the run context
	 * @param kind the consumer kind
	 * @param queues the queues
	 * @param concurrency handlers per queue
	 * @param warmUpSeconds how long the producer runs before samples count
	 * @param seconds how long it runs while samples count
	 * @return the samples, in nanoseconds
	 */
	static Samples run(RunContext context, ConsumerKind kind, List<String> queues, int concurrency,
			double warmUpSeconds, double seconds) {
		BenchServer server = context.server();
		Engine producer = server.newEngine();
		Samples samples = new Samples();
		AtomicBoolean counting = new AtomicBoolean();
		LongAdder handled = new LongAdder();
		try (Consumers consumers = kind.open(server)) {
			for (String queue : queues) {
				consumers.start(queue, concurrency, (payload) -> {
					long now = System.nanoTime();
					long sent = Payloads.stamp(payload);
					if (sent != 0 && counting.get()) {
						samples.add(now - sent);
					}
					handled.increment();
				});
			}
			// let every consumer find its queue empty and block on its wake list
			Probes.sleep(Math.min(1.0, Math.max(0.3, warmUpSeconds)));
			long sentTotal = produce(producer, queues, warmUpSeconds, 0);
			Probes.sleep(0.2);
			counting.set(true);
			sentTotal = produce(producer, queues, seconds, sentTotal);
			long deadline = System.nanoTime() + DRAIN_TIMEOUT_SECONDS * 1_000_000_000L;
			while (handled.sum() < sentTotal && System.nanoTime() - deadline < 0) {
				Probes.sleep(0.01);
			}
			counting.set(false);
		}
		return samples;
	}

	private static long produce(Engine producer, List<String> queues, double seconds, long sentBefore) {
		long interval = 1_000_000_000L / RATE;
		long count = Math.round(seconds * RATE);
		long start = System.nanoTime();
		for (long i = 0; i < count; i++) {
			Probes.sleepNanos(start + i * interval - System.nanoTime());
			String queue = queues.get((int) ((sentBefore + i) % queues.size()));
			producer.enqueues().enqueue(queue, Payloads.stamped(System.nanoTime()), EnqueueSpec.defaults());
		}
		return sentBefore + count;
	}

}
