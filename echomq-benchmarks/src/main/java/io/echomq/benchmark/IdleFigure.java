package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * CPU with {@value #QUEUES} idle queues, each with a consumer at the default concurrency
 * ({@value #CONCURRENCY}): this JVM's process CPU and the server's, as % of one core, and
 * the commands the client sends per second; plus the same with no consumer at all
 * ({@code idle.none.*}), the floor of this JVM and server. The JVM's figure has the
 * resolution of the process CPU clock (10 ms on Linux, 0.1 % over 10 s).
 *
 * @author EchoMQ
 */
final class IdleFigure extends Figure {

	static final int QUEUES = 10;

	static final int CONCURRENCY = 4;

	private static final double WARM_UP_SECONDS = 20;

	IdleFigure() {
		super("idle");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>(List.of("idle.none.jvm_cpu", "idle.none.server_cpu"));
		names.addAll(metricsPer(options.consumers(), (kind) -> "idle." + kind.label(), "jvm_cpu", "server_cpu",
				"commands_per_s", "server_commands_per_s_per_queue"));
		return names;
	}

	/**
	 * Run every consumer kind idle for a while unmeasured: the idle paths (poller
	 * timeouts, reap and promote ticks) are cold after the busy figures, and the JIT
	 * compiles them for tens of seconds, which is not what an idle application costs.
	 */
	@Override
	public void warmUp(RunContext context) {
		for (ConsumerKind kind : context.options().consumers()) {
			Idle.run(context, kind, Probes.queues("bench-idle", QUEUES), CONCURRENCY, WARM_UP_SECONDS, 0.1);
		}
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		Scale scale = context.scale();
		context.server().reset();
		Idle none = Idle.baseline(context, scale.idleSeconds());
		readings.add(new Reading("idle.none.jvm_cpu", none.jvmPercent(), "%core"));
		readings.add(new Reading("idle.none.server_cpu", none.serverPercent(), "%core"));
		for (ConsumerKind kind : context.options().consumers()) {
			Idle idle = Idle.run(context, kind, Probes.queues("bench-idle", QUEUES), CONCURRENCY, scale.settleSeconds(),
					scale.idleSeconds());
			String base = "idle." + kind.label();
			readings.add(new Reading(base + ".jvm_cpu", idle.jvmPercent(), "%core"));
			readings.add(new Reading(base + ".server_cpu", idle.serverPercent(), "%core"));
			readings.add(new Reading(base + ".commands_per_s", idle.clientCommandsPerSecond(), "commands/s"));
			readings.add(new Reading(base + ".server_commands_per_s_per_queue", idle.serverCommandsPerSecond() / QUEUES,
					"commands/s"));
			context.note(String.format("%s jvm %.3f %%, server %.3f %%, %.1f commands/s sent, per queue: %s", base,
					idle.jvmPercent(), idle.serverPercent(), idle.clientCommandsPerSecond(), idle.byCommand(QUEUES)));
		}
		return readings;
	}

}
