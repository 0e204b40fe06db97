package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.echomq.core.internal.Engine;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

/**
 * The harness's command line.
 *
 * @param server the server flavor to start
 * @param runs how many measured runs per figure group
 * @param smoke whether to run tiny sizes (for the build's smoke test)
 * @param figures the figure groups to run, in order
 * @param consumers the consumers the drain, latency and idle figures compare
 * @param depths the queue depths of the depth figures
 * @param queueCounts the queue counts of the queue figures
 * @param serverArgs extra server command line arguments, e.g.
 * {@code --hash-max-listpack-value 128}
 * @param idleSeconds how long idle CPU is measured, or {@code null} for the default
 * @param settleSeconds how long idle consumers run before that, or {@code null} for the
 * default
 * @param quietPercent wait before each run until other processes use less than this share
 * of one core, or {@code null} not to wait
 * @param auditJobsOption the jobs of the audit figure, or {@code null} for the scale's
 * @param retentionCompletionsOption the completions of the retention figure, or
 * {@code null} for the default (1,000,000; 5,000 in a smoke run)
 * @param handlerMillis how long each handler of the I/O drain figure sleeps
 * @param ioConcurrency the concurrencies of the I/O drain figure
 * @author EchoMQ
 */
record HarnessOptions(ServerFlavor server, int runs, boolean smoke, List<String> figures, List<ConsumerKind> consumers,
		List<Integer> depths, List<Integer> queueCounts, List<String> serverArgs, @Nullable Double idleSeconds,
		@Nullable Double settleSeconds, @Nullable Double quietPercent, @Nullable Integer auditJobsOption,
		@Nullable Integer retentionCompletionsOption, int handlerMillis, List<Integer> ioConcurrency) {

	static final List<String> ALL_FIGURES = List.of("enqueue", "drain", "latency", "idle", "memory", "depth", "queues",
			"audit", "lanes", "limiter", "features");

	/** Groups run only when {@code --figures} names them. */
	static final List<String> OPTIONAL_FIGURES = List.of("retention", "io", "await", "flow", "results", "events",
			"resultmemory", "awaitjvm", "batch");

	static final String USAGE = """
			Usage: java -jar echomq-benchmarks.jar [options]
			       java -jar echomq-benchmarks.jar jmh [JMH options]
			  --server valkey|redis      server to start from PATH (default valkey); when it is missing,
			                             outside CI, the next of valkey, redis, embedded Redis 6.2
			  --runs N                   measured runs per figure, the median is printed (default 3)
			  --smoke                    tiny sizes, 1 run (what the build's smoke test runs)
			  --figures a,b,...          groups among enqueue,drain,latency,idle,memory,depth,queues,audit,
			                             lanes,limiter,features (default all), or retention (only when named: memory of job
			                             history, a queue with retention count=1000 over N completions),
			                             io (only when named: handlers that sleep, on virtual threads),
			                             await (only when named: await latency, a drain with every job awaited),
			                             results, events (only when named: a drain with void handlers against
			                             100-byte results, with the event stream off and on), resultmemory
			                             (only when named: memory of 10,000 stored results), awaitjvm (only
			                             when named: await latency with the jobs completed in a child JVM),
			                             flow (only when named: flow children against plain jobs, relay latency),
			                             batch (only when named: 10,000-job batch callback latency, cost, memory)
			  --consumers a,b            listener,engine (default both; engine is the raw Engine baseline)
			  --depths 1000,10000,...    queue depths of the depth figures (default 1000,10000,100000)
			  --queues 1,10,100          queue counts of the queue figures (default 1,10,100)
			  --server-arg NAME=VALUE    extra server setting, repeatable (e.g. hash-max-listpack-value=128)
			  --idle-seconds S           how long idle CPU is measured (default 10)
			  --settle-seconds S         how long idle consumers run before it is (default 5)
			  --quiet PERCENT            before each run, wait (up to 5 min) until other processes use
			                             less than PERCENT of one core (a shared machine)
			  --audit-jobs N             jobs of the audit figure (default 100000; 1000000 for the 1M figure)
			  --retention-completions N  completions of the retention figure (default 1000000)
			  --handler-ms MS            how long each handler of the io figure sleeps (default 10)
			  --io-concurrency 64,256    concurrencies of the io figure (default 64,256)
			""";

	/**
	 * Parse the command line.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException if an argument is not understood
	 */
	static HarnessOptions parse(String... args) {
		ServerFlavor server = ServerFlavor.VALKEY;
		Integer runs = null;
		boolean smoke = false;
		List<String> figures = ALL_FIGURES;
		List<ConsumerKind> consumers = List.of(ConsumerKind.LISTENER, ConsumerKind.ENGINE);
		List<Integer> depths = null;
		List<Integer> queueCounts = null;
		List<String> serverArgs = new ArrayList<>();
		Double idleSeconds = null;
		Double settleSeconds = null;
		Double quietPercent = null;
		Integer auditJobs = null;
		Integer retentionCompletions = null;
		int handlerMillis = 10;
		List<Integer> ioConcurrency = List.of(64, 256);
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			switch (arg) {
				case "--smoke" -> smoke = true;
				case "--server" -> server = ServerFlavor.valueOf(value(args, ++i, arg).toUpperCase(Locale.ROOT));
				case "--runs" -> runs = Integer.parseInt(value(args, ++i, arg));
				case "--figures" -> figures = figures(value(args, ++i, arg));
				case "--consumers" -> consumers = split(value(args, ++i, arg)).stream().map(ConsumerKind::of).toList();
				case "--depths" -> depths = integers(value(args, ++i, arg));
				case "--queues" -> queueCounts = integers(value(args, ++i, arg));
				case "--server-arg" -> serverArgs.addAll(serverArg(value(args, ++i, arg)));
				case "--idle-seconds" -> idleSeconds = Double.parseDouble(value(args, ++i, arg));
				case "--settle-seconds" -> settleSeconds = Double.parseDouble(value(args, ++i, arg));
				case "--quiet" -> quietPercent = Double.parseDouble(value(args, ++i, arg));
				case "--audit-jobs" -> auditJobs = Integer.parseInt(value(args, ++i, arg));
				case "--retention-completions" -> retentionCompletions = Integer.parseInt(value(args, ++i, arg));
				case "--handler-ms" -> handlerMillis = Integer.parseInt(value(args, ++i, arg));
				case "--io-concurrency" -> ioConcurrency = integers(value(args, ++i, arg));
				default -> throw new IllegalArgumentException("Unknown argument '" + arg + "'\n" + USAGE);
			}
		}
		int effectiveRuns = (runs != null) ? runs : (smoke ? 1 : 3);
		if (effectiveRuns < 1) {
			throw new IllegalArgumentException("--runs must be at least 1");
		}
		if (retentionCompletions != null && retentionCompletions < 2_000) {
			throw new IllegalArgumentException(
					"--retention-completions must be at least 2000, was " + retentionCompletions);
		}
		if (auditJobs != null && auditJobs < 10) {
			throw new IllegalArgumentException("--audit-jobs must be at least 10");
		}
		if (handlerMillis < 1) {
			throw new IllegalArgumentException("--handler-ms must be at least 1, was " + handlerMillis);
		}
		if (consumers.isEmpty()) {
			throw new IllegalArgumentException("--consumers names none");
		}
		return new HarnessOptions(server, effectiveRuns, smoke, figures, consumers,
				(depths != null) ? depths : (smoke ? List.of(1_000) : List.of(1_000, 10_000, 100_000)),
				(queueCounts != null) ? queueCounts : (smoke ? List.of(1, 10) : List.of(1, 10, 100)),
				List.copyOf(serverArgs), idleSeconds, settleSeconds, quietPercent, auditJobs, retentionCompletions,
				handlerMillis, List.copyOf(ioConcurrency));
	}

	/**
	 * Return the sizes of a run with these options.
	 * @return the sizes
	 */
	Scale scale() {
		Scale scale = this.smoke ? Scale.smoke() : Scale.full();
		return scale.withIdle((this.idleSeconds != null) ? this.idleSeconds : scale.idleSeconds(),
				(this.settleSeconds != null) ? this.settleSeconds : scale.settleSeconds());
	}

	/**
	 * Return the completions of the retention figure.
	 * @return {@code --retention-completions}, or the default
	 */
	int retentionCompletions() {
		if (this.retentionCompletionsOption != null) {
			return this.retentionCompletionsOption;
		}
		return this.smoke ? 5_000 : 1_000_000;
	}

	/**
	 * Return the jobs of the audit figure.
	 * @param scale the sizes of the run
	 * @return {@code --audit-jobs}, or the scale's
	 */
	int auditJobs(Scale scale) {
		return (this.auditJobsOption != null) ? this.auditJobsOption : scale.auditJobs();
	}

	/**
	 * Return the consumer that the depth and queue figures use: the first one named.
	 * @return the consumer kind
	 */
	ConsumerKind primaryConsumer() {
		return this.consumers.get(0);
	}

	private static String value(String[] args, int index, String name) {
		if (index >= args.length) {
			throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
		}
		return args[index];
	}

	private static List<String> serverArg(String text) {
		int equals = text.indexOf('=');
		if (equals <= 0) {
			throw new IllegalArgumentException("--server-arg needs NAME=VALUE, was '" + text + "'");
		}
		return List.of("--" + text.substring(0, equals), text.substring(equals + 1));
	}

	private static List<String> figures(String text) {
		List<String> figures = split(text);
		for (String figure : figures) {
			if (!ALL_FIGURES.contains(figure) && !OPTIONAL_FIGURES.contains(figure)) {
				throw new IllegalArgumentException("Unknown figure group '" + figure + "', expected one of "
						+ ALL_FIGURES + " or " + OPTIONAL_FIGURES);
			}
		}
		return figures;
	}

	private static List<Integer> integers(String text) {
		return split(text).stream().map(Integer::parseInt).toList();
	}

	private static List<String> split(@Nullable String text) {
		List<String> parts = new ArrayList<>();
		if (text != null) {
			for (String part : text.split(",")) {
				if (!part.isBlank()) {
					parts.add(part.strip());
				}
			}
		}
		return parts;
	}

}
