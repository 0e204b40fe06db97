package io.echomq.benchmark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.echomq.core.FlowLimits;
import io.echomq.test.ChildJvm;

/**
 * How exactly the queue-wide rate limit holds across JVMs: three listener containers
 * (concurrency 16 each, every one on its own connections and engine), two in this JVM and
 * one in a child JVM ({@link LimiterWorker}), drain a backlog of instant jobs from one
 * queue limited to 1,000 starts per second for 30 s. Every start is counted at the server
 * time its claim script recorded ({@code ClaimedJob.claimedAt}), so the figures do not
 * depend on either JVM's clock:
 * <ul>
 * <li>{@code limiter.rate_min}, {@code rate_median}, {@code rate_max}: starts per second
 * of server time, counted from the first start, over the whole seconds after the first
 * (the last, partial second is left out);</li>
 * <li>{@code limiter.seconds_outside}: how many of those seconds were outside the limit
 * ±5 %;</li>
 * <li>{@code limiter.window_max}: the most starts in any sliding window of one
 * second.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class LimiterFigure extends Figure {

	static final int LIMIT = 1_000;

	private static final int CONCURRENCY = 16;

	private static final String QUEUE = "bench-limiter";

	LimiterFigure() {
		super("limiter", "limiter.rate_min", "limiter.rate_median", "limiter.rate_max", "limiter.seconds_outside",
				"limiter.window_max");
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		int seconds = context.options().smoke() ? 3 : 30;
		BenchServer server = context.server();
		server.reset();
		Probes.prefill(server.newEngine(), QUEUE, LIMIT * (seconds + 5));
		Path log = Files.createTempFile("echomq-limiter-worker-", ".log");
		Path startsFile = Files.createTempFile("echomq-limiter-starts-", ".txt");
		List<Long> starts = new ArrayList<>();
		String host = server.process().host();
		int port = server.process().port();
		Process child = ChildJvm.start(LimiterWorker.class, log, List.of(host, String.valueOf(port), QUEUE, "1",
				String.valueOf(CONCURRENCY), String.valueOf(LIMIT), "1000", startsFile.toString()));
		try {
			awaitReady(child, log);
			try (LimiterWorker local = new LimiterWorker(host, port, QUEUE, 2, CONCURRENCY,
					new FlowLimits(null, new FlowLimits.RateLimit(LIMIT, Duration.ofSeconds(1))))) {
				Probes.sleep(seconds);
				local.stopRecording();
				try (OutputStream stdin = child.getOutputStream()) {
					stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
				}
				if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
					throw new IllegalStateException("limiter worker JVM failed; its log:\n" + Files.readString(log));
				}
				starts.addAll(local.starts());
			}
			int localStarts = starts.size();
			for (String line : Files.readAllLines(startsFile)) {
				starts.add(Long.parseLong(line));
			}
			if (localStarts == 0 || starts.size() == localStarts) {
				// the figure is about two JVMs sharing one limit: both must have taken
				// part
				String idle = (localStarts == 0) ? "this" : "the child";
				throw new IllegalStateException(
						"limiter run without starts in " + idle + " JVM; the child's log:\n" + Files.readString(log));
			}
		}
		finally {
			child.destroyForcibly();
			Files.deleteIfExists(log);
			Files.deleteIfExists(startsFile);
		}
		server.reset();
		Rates rates = Rates.of(starts);
		context.note(String.format(Locale.ROOT,
				"limiter at %d/s, 2 JVMs: per second min %d median %d max %d, %d of %d seconds outside +-5%%, "
						+ "most in any 1 s window %d, load average %s, per second %s",
				LIMIT, rates.min(), rates.median(), rates.max(), rates.outside(), rates.perSecond().size(),
				rates.window(), Harness.loadAverage(), rates.perSecond()));
		return List.of(new Reading("limiter.rate_min", rates.min(), "jobs/s"),
				new Reading("limiter.rate_median", rates.median(), "jobs/s"),
				new Reading("limiter.rate_max", rates.max(), "jobs/s"),
				new Reading("limiter.seconds_outside", rates.outside(), "s"),
				new Reading("limiter.window_max", rates.window(), "jobs"));
	}

	private static void awaitReady(Process child, Path log) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!Files.readString(log).contains("READY")) {
			if (!child.isAlive() || System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("limiter worker JVM not ready; its log:\n" + Files.readString(log));
			}
			Thread.sleep(50);
		}
	}

	/**
	 * Starts per second of server time and the fullest one-second window.
	 *
	 * @param perSecond the count of each whole second after the first
	 * @param window the most starts in any window of one second
	 */
	record Rates(List<Integer> perSecond, int window) {

		static Rates of(List<Long> starts) {
			List<Long> sorted = starts.stream().sorted().toList();
			if (sorted.isEmpty()) {
				return new Rates(List.of(), 0);
			}
			long first = sorted.get(0);
			TreeMap<Long, Integer> bySecond = new TreeMap<>();
			for (long t : sorted) {
				bySecond.merge((t - first) / 1000, 1, Integer::sum);
			}
			List<Integer> perSecond = new ArrayList<>();
			for (long second = 1; second < bySecond.lastKey(); second++) {
				perSecond.add(bySecond.getOrDefault(second, 0));
			}
			int window = 0;
			int from = 0;
			for (int to = 0; to < sorted.size(); to++) {
				while (sorted.get(to) - sorted.get(from) >= 1000) {
					from++;
				}
				window = Math.max(window, to - from + 1);
			}
			return new Rates(perSecond, window);
		}

		int min() {
			return this.perSecond.stream().mapToInt(Integer::intValue).min().orElse(0);
		}

		int max() {
			return this.perSecond.stream().mapToInt(Integer::intValue).max().orElse(0);
		}

		int median() {
			List<Integer> sorted = this.perSecond.stream().sorted().toList();
			return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
		}

		long outside() {
			return this.perSecond.stream().filter((n) -> Math.abs(n - LIMIT) > LIMIT * 0.05).count();
		}

	}

}
