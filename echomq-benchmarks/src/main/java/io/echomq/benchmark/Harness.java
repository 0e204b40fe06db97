package io.echomq.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark command line. It starts a server of its own (Valkey from {@code PATH} by
 * default, falling back as {@link BenchServer#binary} says), runs each figure group
 * {@code --runs} times and prints one {@link ResultLine} per figure to standard output:
 * the median of the runs. Progress notes go to standard error. {@code jmh} as the first
 * argument runs the JMH benchmarks instead, with JMH's own options.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class Harness {

	private static final double QUIET_WAIT_SECONDS = 300;

	/**
	 * A warm-up round during which the JIT compiler threads used at most this % of a core
	 * ends the warm-up.
	 */
	static final double JIT_QUIET_PERCENT = 5;

	static final int MAX_WARMUP_ROUNDS = 20;

	private Harness() {
	}

	/**
	 * Run the harness, or JMH when the first argument is {@code jmh}.
	 * @param args the arguments, see {@link HarnessOptions#USAGE}
	 * @throws Exception if a benchmark fails
	 */
	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("jmh")) {
			org.openjdk.jmh.Main.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("partitions")) {
			PartitionedDrain.run(Arrays.copyOfRange(args, 1, args.length), System.out);
			System.exit(0);
		}
		if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
			System.out.print(HarnessOptions.USAGE);
			return;
		}
		run(args, System.out, System.err);
		// Lettuce's and the containers' threads are daemons, but be sure the JVM ends
		System.exit(0);
	}

	/**
	 * Run the harness.
	 * @param args the arguments, see {@link HarnessOptions#USAGE}
	 * @param out where the result lines go
	 * @param log where progress notes go
	 * @return the result lines printed
	 * @throws Exception if a benchmark fails
	 */
	public static List<String> run(String[] args, PrintStream out, PrintStream log) throws Exception {
		HarnessOptions options = HarnessOptions.parse(args);
		Scale scale = options.scale();
		List<String> lines = new ArrayList<>();
		try (BenchServer server = BenchServer.start(options.server(), options.serverArgs())) {
			RunContext context = new RunContext(server, options, scale, log);
			out.println("BENCH-ENV " + environment(server));
			out.flush();
			for (String group : options.figures()) {
				lines.addAll(runGroup(context, figure(group), out));
			}
		}
		return lines;
	}

	private static List<String> runGroup(RunContext context, Figure figure, PrintStream out) throws Exception {
		List<String> names = new ArrayList<>(figure.names(context.options()));
		names.add(jitFigure(figure));
		names.add(noiseFigure(figure));
		HarnessOptions options = context.options();
		Noise noise = new Noise(context.server().process().pid());
		if (!options.smoke()) {
			warmUp(context, figure);
		}
		Map<String, double[]> values = new LinkedHashMap<>();
		Map<String, String> units = new LinkedHashMap<>();
		for (int run = 0; run < options.runs(); run++) {
			if (options.quietPercent() != null) {
				double before = noise.awaitQuiet(options.quietPercent(), QUIET_WAIT_SECONDS);
				context.note(String.format(Locale.ROOT, "%s: other processes use %.0f %% of a core", figure.group(),
						before));
			}
			context.note(figure.group() + ": run " + (run + 1) + " of " + options.runs() + " (load average "
					+ loadAverage() + ")");
			noise.start();
			JitProbe jit = new JitProbe();
			List<Reading> readings = new ArrayList<>(figure.run(context));
			readings.add(new Reading(jitFigure(figure), jit.percentSinceStart(), "%core"));
			readings.add(new Reading(noiseFigure(figure), noise.percentSinceStart(), "%core"));
			for (Reading reading : readings) {
				values.computeIfAbsent(reading.figure(), (name) -> new double[options.runs()])[run] = reading.value();
				units.put(reading.figure(), reading.unit());
				context
					.note("  " + reading.figure() + " = " + ResultLine.format(reading.value()) + " " + reading.unit());
			}
		}
		List<String> lines = new ArrayList<>();
		for (String name : names) {
			double[] runs = values.get(name);
			if (runs == null) {
				throw new IllegalStateException("Figure group '" + figure.group() + "' did not measure " + name);
			}
			String line = new ResultLine(name, Samples.median(runs), units.get(name), context.server().label(),
					runs.length, Arrays.stream(runs).min().orElse(0), Arrays.stream(runs).max().orElse(0))
				.toString();
			out.println(line);
			lines.add(line);
		}
		out.flush();
		return lines;
	}

	/**
	 * Repeat the figure's warm-up until the JIT compiler threads stay under
	 * {@value #JIT_QUIET_PERCENT} % of a core through a whole round (at most
	 * {@value #MAX_WARMUP_ROUNDS} rounds): a short warm-up left the compiler busy with
	 * half a core during the first measured run.
	 */
	private static void warmUp(RunContext context, Figure figure) throws Exception {
		for (int round = 1;; round++) {
			JitProbe jit = new JitProbe();
			figure.warmUp(context);
			double percent = jit.percentSinceStart();
			context.note(String.format(Locale.ROOT, "%s: warm-up round %d, JIT compiler threads %.1f %% of a core",
					figure.group(), round, percent));
			if (percent <= JIT_QUIET_PERCENT || round >= MAX_WARMUP_ROUNDS) {
				return;
			}
		}
	}

	/**
	 * Return the figure names a run with these arguments prints, in order.
	 * @param args the arguments
	 * @return the names
	 */
	static List<String> expectedFigures(String... args) {
		HarnessOptions options = HarnessOptions.parse(args);
		List<String> names = new ArrayList<>();
		for (String group : options.figures()) {
			Figure figure = figure(group);
			names.addAll(figure.names(options));
			names.add(jitFigure(figure));
			names.add(noiseFigure(figure));
		}
		return names;
	}

	private static String jitFigure(Figure figure) {
		return "jit." + figure.group() + ".compiler_cpu";
	}

	private static String noiseFigure(Figure figure) {
		return "noise." + figure.group() + ".other_cpu";
	}

	static Figure figure(String group) {
		return switch (group) {
			case "enqueue" -> new EnqueueFigure();
			case "drain" -> new DrainFigure();
			case "latency" -> new LatencyFigure();
			case "idle" -> new IdleFigure();
			case "memory" -> new MemoryFigure();
			case "depth" -> new DepthFigure();
			case "queues" -> new QueuesFigure();
			case "audit" -> new AuditFigure();
			case "retention" -> new RetentionFigure();
			case "io" -> new IoDrainFigure();
			case "await" -> new AwaitFigure();
			case "flow" -> new FlowFigure();
			case "batch" -> new BatchFigure();
			case "lanes" -> new LanesFigure();
			case "limiter" -> new LimiterFigure();
			case "features" -> new FeaturesFigure();
			case "results" -> JobCostFigure.results();
			case "events" -> JobCostFigure.events();
			case "resultmemory" -> new ResultMemoryFigure();
			case "awaitjvm" -> new AwaitJvmFigure();
			default -> throw new IllegalArgumentException("Unknown figure group '" + group + "'");
		};
	}

	private static String environment(BenchServer server) {
		return "nproc=" + Runtime.getRuntime().availableProcessors() + " java=" + System.getProperty("java.version")
				+ " server=" + server.label() + " server_args=\""
				+ String.join(" ", server.process().options().extraArgs()) + "\" loadavg=" + loadAverage() + " cpu=\""
				+ cpuModel() + "\"";
	}

	/**
	 * Return the one-minute load average, to tell a quiet machine from a busy one.
	 * @return e.g. {@code 0.42}
	 */
	static String loadAverage() {
		return String.format(Locale.ROOT, "%.2f",
				java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
	}

	private static String cpuModel() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).strip();
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux
		}
		return System.getProperty("os.arch");
	}

}
