package io.echomq.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.test.ChildJvm;

/**
 * Await latency across JVMs, run only when named ({@code --figures awaitjvm}): a child
 * JVM ({@link AwaitWorker}, a listener at concurrency 1) completes the jobs, this JVM
 * enqueues one job at a time and awaits it ({@code Waiters.await}, its own engine and
 * subscription). The handler returns the wall-clock time of its return as the job's
 * result; the sample is from that time to this JVM's future completing, both read from
 * {@link Instant#now()} (the host's {@code CLOCK_REALTIME}, one clock for both processes
 * on one machine, microsecond resolution). So the figure holds the child's completion
 * (its batcher and the complete script), the {@code PUBLISH}, the delivery to this JVM
 * and its reads of the result. The first {@value #DISCARDED} samples of each run warm the
 * child up and are dropped.
 *
 * @author EchoMQ
 */
final class AwaitJvmFigure extends Figure {

	private static final int SAMPLES = 500;

	private static final int SMOKE_SAMPLES = 20;

	private static final int DISCARDED = 100;

	private static final int SMOKE_DISCARDED = 5;

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String QUEUE = "bench-await-jvm";

	AwaitJvmFigure() {
		super("awaitjvm", "awaitjvm.latency.p50", "awaitjvm.latency.p99", "awaitjvm.latency.max");
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		boolean smoke = context.options().smoke();
		Samples samples = latency(context, smoke ? SMOKE_DISCARDED : DISCARDED, smoke ? SMOKE_SAMPLES : SAMPLES);
		context.note(String.format(
				"awaitjvm %d samples (handler return in a child JVM -> future done here), "
						+ "p50 %.3f ms, p99 %.3f ms, max %.3f ms",
				samples.size(), samples.percentile(50) / 1e3, samples.percentile(99) / 1e3, samples.max() / 1e3));
		return List.of(new Reading("awaitjvm.latency.p50", samples.percentile(50) / 1e3, "ms"),
				new Reading("awaitjvm.latency.p99", samples.percentile(99) / 1e3, "ms"),
				new Reading("awaitjvm.latency.max", samples.max() / 1e3, "ms"));
	}

	/**
	 * Return the samples in microseconds.
	 */
	private static Samples latency(RunContext context, int discarded, int count) throws Exception {
		BenchServer server = context.server();
		server.reset();
		Path log = Files.createTempFile("echomq-await-worker-", ".log");
		Process child = ChildJvm.start(AwaitWorker.class, log,
				List.of(server.process().host(), String.valueOf(server.process().port()), QUEUE));
		Engine producer = server.newEngine();
		Engine waiter = server.newEngine();
		Samples samples = new Samples();
		try {
			awaitReady(child, log);
			for (int i = 0; i < discarded + count; i++) {
				JobId id = producer.enqueues().enqueue(QUEUE, Payloads.plain(), EnqueueSpec.defaults());
				CompletableFuture<Long> done = waiter.waiters()
					.await(QUEUE, id, WAIT)
					.thenApply((result) -> micros(Instant.now()) - returnedAt(id, result));
				long sample = done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
				if (i >= discarded) {
					samples.add(sample);
				}
			}
			try (OutputStream stdin = child.getOutputStream()) {
				stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
			}
			if (!child.waitFor(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("await worker JVM did not stop; its log:\n" + Files.readString(log));
			}
		}
		finally {
			child.destroyForcibly();
			waiter.close();
			producer.close();
			Files.deleteIfExists(log);
			server.reset();
		}
		return samples;
	}

	private static long returnedAt(JobId id, String result) {
		if (result == null || result.length() < 3) {
			throw new IllegalStateException("job " + id + " completed without the worker's time: " + result);
		}
		// the converter wrote the string as JSON: "1733..."
		return Long.parseLong(result.substring(1, result.length() - 1));
	}

	private static long micros(Instant instant) {
		return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
	}

	private static void awaitReady(Process child, Path log) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!Files.readString(log).contains("READY")) {
			if (!child.isAlive() || System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("await worker JVM not ready; its log:\n" + Files.readString(log));
			}
			Thread.sleep(50);
		}
	}

}
