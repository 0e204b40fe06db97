package io.echomq.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.JobState;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;

/**
 * What auditing a big queue costs the server: a queue of {@code --audit-jobs} jobs
 * (100,000 by default; 90 % pending, 10 % active), audited once with
 * {@link QueueAuditor}. Figures: the audit's wall time; the longest single command the
 * server ran for it (from {@code SLOWLOG}, which logs every command slower than
 * {@value #SLOWLOG_THRESHOLD_US} µs during the audit: a command's execution time, which
 * is how long it kept every other client waiting, wall clock, so on a shared machine it
 * includes the time the server was not scheduled); the highest per-command 99th
 * percentile ({@code INFO latencystats}), which such pauses hardly move; the server time
 * all its commands took ({@code INFO commandstats}); the commands it sent; and, for
 * comparison, what one {@code ZRANGE 0 -1 WITHSCORES} of the pending set takes, the first
 * command the audit used to send before it was made incremental.
 *
 * @author EchoMQ
 */
final class AuditFigure extends Figure {

	private static final String QUEUE = "bench-audit";

	private static final int SLOWLOG_THRESHOLD_US = 100;

	private static final int SLOWLOG_LENGTH = 100_000;

	private static final Set<String> ADMIN = Set.of("info", "config|set", "config|resetstat", "config", "slowlog",
			"slowlog|reset", "slowlog|get", "flushall", "ping", "hello", "client", "client|setinfo", "time");

	AuditFigure() {
		super("audit", "audit.jobs", "audit.wall", "audit.longest_command", "audit.command_p99", "audit.server_time",
				"audit.commands", "audit.whole_set_zrange");
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		BenchServer server = context.server();
		int count = context.options().auditJobs(context.scale());
		server.reset();
		Engine jobs = server.newEngine();
		context.note("audit: filling " + count + " jobs");
		Probes.prefill(jobs, QUEUE, count);
		int active = count / 10;
		for (int claimed = 0; claimed < active;) {
			claimed += jobs.claims().claim(QUEUE, Duration.ofHours(1), Math.min(1_000, active - claimed)).size();
		}
		QueueAuditor auditor = new QueueAuditor(jobs);
		startSlowlog(server);
		long start = System.nanoTime();
		AuditReport report = auditor.audit(QUEUE, Duration.ofHours(1));
		double wall = (System.nanoTime() - start) / 1e9;
		CommandStats stats = server.commandStats();
		long commands = stats.allCalls();
		double serverTime = serverMillis(stats);
		double p99 = highestP99(server, context);
		long longest = longestLogged(server, context);
		if (!report.isClean() || report.total() != count || report.counts().get(JobState.ACTIVE) != active
				|| report.rows() != count) {
			throw new IllegalStateException("Audit of " + count + " jobs is wrong: " + report.counts() + ", rows "
					+ report.rows() + ", " + report.violationCount() + " violations " + report.violations());
		}
		startSlowlog(server);
		jobs.executor()
			.getTemplate()
			.opsForZSet()
			.rangeWithScores(jobs.keyspace().queueKey(QUEUE, KeyType.PENDING.suffix()), 0, -1);
		long wholeSet = longestLogged(server, context);
		server.command("CONFIG", "SET", "slowlog-log-slower-than", "10000");
		server.command("CONFIG", "SET", "slowlog-max-len", "128");
		server.reset();
		return List.of(new Reading("audit.jobs", count, "jobs"), new Reading("audit.wall", wall, "s"),
				new Reading("audit.longest_command", longest, "us"), new Reading("audit.command_p99", p99, "us"),
				new Reading("audit.server_time", serverTime, "ms"), new Reading("audit.commands", commands, "calls"),
				new Reading("audit.whole_set_zrange", wholeSet, "us"));
	}

	private static double serverMillis(CommandStats stats) {
		long micros = 0;
		for (Map.Entry<String, Long> entry : stats.usec().entrySet()) {
			if (!ADMIN.contains(entry.getKey())) {
				micros += entry.getValue();
			}
		}
		return micros / 1000.0;
	}

	/**
	 * Return the highest 99th percentile latency of the commands the audit ran, from
	 * {@code INFO latencystats} (Redis 7, Valkey); 0 where the server has none. Notes
	 * every command's percentiles.
	 */
	private static double highestP99(BenchServer server, RunContext context) {
		double highest = 0;
		for (Map.Entry<String, String> entry : new java.util.TreeMap<>(server.info("latencystats")).entrySet()) {
			String name = entry.getKey().replace("latency_percentiles_usec_", "");
			if (!entry.getKey().startsWith("latency_percentiles_usec_") || ADMIN.contains(name)) {
				continue;
			}
			context.note("audit: " + name + " " + entry.getValue() + " (us)");
			for (String part : entry.getValue().split(",")) {
				if (part.startsWith("p99=")) {
					highest = Math.max(highest, Double.parseDouble(part.substring("p99=".length())));
				}
			}
		}
		return highest;
	}

	private static void startSlowlog(BenchServer server) {
		server.command("CONFIG", "SET", "slowlog-log-slower-than", Integer.toString(SLOWLOG_THRESHOLD_US));
		server.command("CONFIG", "SET", "slowlog-max-len", Integer.toString(SLOWLOG_LENGTH));
		server.command("SLOWLOG", "RESET");
		server.resetStats();
	}

	/**
	 * Return the longest execution time in the slow log, in µs; the threshold when
	 * nothing was slow enough to be logged.
	 */
	private static long longestLogged(BenchServer server, RunContext context) {
		Object reply = server.command("SLOWLOG", "GET", Integer.toString(SLOWLOG_LENGTH));
		long longest = 0;
		Object command = "nothing over " + SLOWLOG_THRESHOLD_US + " us";
		int logged = 0;
		if (reply instanceof List<?> entries) {
			for (Object entry : entries) {
				if (entry instanceof List<?> fields && fields.size() > 3 && fields.get(2) instanceof Long micros) {
					logged++;
					if (micros > longest) {
						longest = micros;
						command = fields.get(3);
					}
				}
			}
		}
		context.note("audit: " + logged + " commands over " + SLOWLOG_THRESHOLD_US + " us, the longest " + longest
				+ " us: " + command);
		return (longest > 0) ? longest : SLOWLOG_THRESHOLD_US;
	}

}
