package io.echomq.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Runs the harness once in its tiny {@code --smoke} mode and checks that it printed a
 * well-formed line for every figure. No thresholds: timing belongs to real runs, not to
 * the build.
 *
 * @author EchoMQ
 */
class HarnessSmokeTests {

	private static final Pattern FIGURE = Pattern.compile("figure=(\\S+) value=(\\S+) ");

	@Test
	void smokeRunPrintsEveryFigureOnce() throws Exception {
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
		List<String> returned = Harness.run(new String[] { "--smoke" }, out, System.err);
		List<String> printed = buffer.toString(StandardCharsets.UTF_8).lines().toList();
		assertThat(printed).anySatisfy((line) -> assertThat(line).startsWith("BENCH-ENV nproc="));
		List<String> results = printed.stream().filter((line) -> line.startsWith(ResultLine.PREFIX)).toList();
		assertThat(results).containsExactlyElementsOf(returned);
		assertThat(results).allSatisfy((line) -> assertThat(line).matches(ResultLine.PATTERN));
		List<String> figures = new ArrayList<>();
		for (String line : results) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			assertThat(Double.parseDouble(matcher.group(2))).isFinite();
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures("--smoke"));
		assertThat(figures).contains("drain.listener.c16", "drain.listener.c16.jvm_us_per_job",
				"drain.listener.c16.server_us_per_job", "enqueue.sequential.jvm_us_per_job", "jit.drain.compiler_cpu",
				"drain.engine.c16", "latency.listener.p50", "idle.listener.jvm_cpu", "memory.per_pending_job",
				"depth.d1000.claim.p50", "queues.q10.listener.drain", "audit.longest_command", "lanes.cost.ratio",
				"lanes.fairness.ratio", "limiter.window_max");
	}

	@Test
	void retentionFigureKeepsCompletedAtItsBoundAndPrintsEveryFigure() throws Exception {
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "retention" };
		List<String> returned = Harness.run(args, out, System.err);
		List<String> figures = new ArrayList<>();
		double largest = -1;
		for (String line : returned) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			if (matcher.group(1).equals("retention.completed.max")) {
				largest = Double.parseDouble(matcher.group(2));
			}
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures(args));
		// four threads complete at once, so the bound may be passed by the calls in
		// flight
		assertThat(largest).isBetween(1_000.0, 1_000.0 + 4 * 16);
	}

	@Test
	void ioFigureDrainsWithSleepingHandlersAndReportsTheShareOfTheIdeal() throws Exception {
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "io", "--handler-ms", "5", "--io-concurrency", "32" };
		List<String> returned = Harness.run(args, out, System.err);
		List<String> figures = new ArrayList<>();
		double percent = -1;
		for (String line : returned) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			if (matcher.group(1).equals("drain.io.c32.ideal_percent")) {
				percent = Double.parseDouble(matcher.group(2));
			}
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures(args));
		// 32 handlers sleeping 5 ms cannot beat 6,400 jobs/s
		assertThat(percent).isGreaterThan(0).isLessThanOrEqualTo(100.0);
	}

	@Test
	void awaitFigureTimesTheFuturesAndDrainsWithAndWithoutAwaiters() throws Exception {
		PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "await" };
		List<String> returned = Harness.run(args, out, System.err);
		Map<String, Double> values = new HashMap<>();
		List<String> figures = new ArrayList<>();
		for (String line : returned) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			values.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures(args));
		// every future settled within the figure's wait, after its handler returned
		assertThat(values.get("await.latency.p50")).isGreaterThan(0)
			.isLessThanOrEqualTo(values.get("await.latency.p99"));
		assertThat(values.get("await.drain.none")).isGreaterThan(0);
		assertThat(values.get("await.drain.awaited")).isGreaterThan(0);
	}

	@Test
	void issue23FiguresStoreResultsWriteEventsAndAwaitAcrossJvms() throws Exception {
		PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "results,events,resultmemory,awaitjvm" };
		List<String> returned = Harness.run(args, out, System.err);
		Map<String, Double> values = new HashMap<>();
		List<String> figures = new ArrayList<>();
		for (String line : returned) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			values.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures(args));
		assertThat(values.get("results.result100.c16")).isPositive();
		// each job's result is on its retained row, or a key of its own without retention
		assertThat(values.get("resultmemory.retained.row.result100"))
			.isGreaterThan(values.get("resultmemory.retained.row.void") + JobCostFigure.RESULT_BYTES);
		assertThat(values.get("resultmemory.unretained.result_key")).isGreaterThan(JobCostFigure.RESULT_BYTES);
		// a claimed and a completed event per job, one XADD each
		assertThat(values.get("events.on.c16.commands_per_job"))
			.isGreaterThan(values.get("events.off.c16.commands_per_job") + 1);
		// every future completed with the child JVM's time, after it
		assertThat(values.get("awaitjvm.latency.p50")).isGreaterThan(0)
			.isLessThanOrEqualTo(values.get("awaitjvm.latency.p99"));
	}

	@Test
	void batchFigureTimesTheCallbackAndCountsMembersAgainstPlainJobs() throws Exception {
		PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "batch" };
		Map<String, Double> values = new HashMap<>();
		List<String> figures = new ArrayList<>();
		for (String line : Harness.run(args, out, System.err)) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			figures.add(matcher.group(1));
			values.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
		}
		assertThat(figures).containsExactlyElementsOf(Harness.expectedFigures(args));
		// the callback starts after the last member returned
		assertThat(values.get("batch.c8.callback.p50")).isPositive()
			.isLessThanOrEqualTo(values.get("batch.c8.callback.p99"));
		// a member is also counted on the batch row, through the outbox
		assertThat(values.get("batch.c16.commands_per_member"))
			.isGreaterThan(values.get("batch.plain.c16.commands_per_job"));
		assertThat(values.get("batch.memory.row_finished_per_member")).isPositive();
		assertThat(values.get("batch.memory.used_per_member")).isPositive();
	}

	@Test
	void limiterFigureCountsStartsOfBothJvmsAndNoWindowHoldsMoreThanTheLimit() throws Exception {
		// the figure fails unless both JVMs started jobs
		PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
		String[] args = { "--smoke", "--figures", "limiter" };
		List<String> returned = Harness.run(args, out, System.err);
		Map<String, Double> values = new HashMap<>();
		for (String line : returned) {
			Matcher matcher = FIGURE.matcher(line);
			assertThat(matcher.find()).isTrue();
			values.put(matcher.group(1), Double.parseDouble(matcher.group(2)));
		}
		assertThat(values.keySet()).containsExactlyInAnyOrderElementsOf(Harness.expectedFigures(args));
		assertThat(values.get("limiter.window_max")).isPositive().isLessThanOrEqualTo(LimiterFigure.LIMIT);
		assertThat(values.get("limiter.rate_max")).isPositive().isLessThanOrEqualTo(LimiterFigure.LIMIT);
	}

	@Test
	void missingServerFallsBackOutsideCiAndIsRequiredOnCi() {
		Map<String, String> bare = Map.of("PATH", "/nonexistent/echomq/bin");
		ServerBinary fallback = BenchServer.binary(ServerFlavor.VALKEY, bare::get);
		assertThat(fallback.flavor()).isEqualTo(ServerFlavor.REDIS);
		assertThat(fallback.version()).startsWith("6.2.");
		Map<String, String> ci = Map.of("PATH", "/nonexistent/echomq/bin", "CI", "true");
		assertThatIllegalStateException().isThrownBy(() -> BenchServer.binary(ServerFlavor.VALKEY, ci::get))
			.withMessageContaining("valkey-server is not on PATH")
			.withMessageContaining("CI requires it");
	}

	@Test
	void optionsAreParsed() {
		HarnessOptions options = HarnessOptions.parse("--server", "redis", "--runs", "5", "--figures", "drain,memory",
				"--consumers", "engine", "--depths", "1000,1000000", "--queues", "1,100", "--audit-jobs", "1000000",
				"--handler-ms", "20", "--io-concurrency", "8,512");
		assertThat(options.server().name()).isEqualTo("REDIS");
		assertThat(options.runs()).isEqualTo(5);
		assertThat(options.figures()).containsExactly("drain", "memory");
		assertThat(options.consumers()).containsExactly(ConsumerKind.ENGINE);
		assertThat(options.depths()).containsExactly(1000, 1_000_000);
		assertThat(options.queueCounts()).containsExactly(1, 100);
		assertThat(options.auditJobs(options.scale())).isEqualTo(1_000_000);
		assertThat(options.handlerMillis()).isEqualTo(20);
		assertThat(options.ioConcurrency()).containsExactly(8, 512);
		assertThat(Harness.expectedFigures("--figures", "memory")).containsExactly("memory.per_pending_job",
				"memory.row", "memory.pending_index_per_job", "memory.per_pending_job.1k", "memory.row.1k",
				"memory.per_pending_job.10k", "memory.row.10k", "jit.memory.compiler_cpu", "noise.memory.other_cpu");
	}

	@Test
	void resultLinesAreMachineReadable() {
		String line = new ResultLine("drain.listener.c16", 15234.4, "jobs/s", "valkey-8.0.1", 5, 14800, 0.00012)
			.toString();
		assertThat(line).isEqualTo("BENCH figure=drain.listener.c16 value=15234 unit=jobs/s server=valkey-8.0.1 "
				+ "runs=5 median min=14800 max=0.0001");
		assertThat(line).matches(ResultLine.PATTERN);
		assertThat(Payloads.stamped(123456789L)).hasSize(Payloads.SIZE);
		assertThat(Payloads.stamp(Payloads.stamped(123456789L))).isEqualTo(123456789L);
		assertThat(Payloads.plain()).hasSize(Payloads.SIZE);
	}

}
