package io.echomq.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Flows;
import io.echomq.flow.ChildFailure;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Flows (docs/flows.md), run only when named:
 * <ul>
 * <li>{@code flow.plain}, {@code flow.child.same_slot}, {@code flow.child.other_slot}:
 * the listener drains {@value #CHILDREN_PER_PARENT} jobs per parent at concurrency
 * {@value #CONCURRENCY}: plain jobs; children of parents in their own queue (the
 * completing script settles the parent); children of parents in another queue (an outbox
 * record each, relayed by the listener node's prompt relay). Server CPU, commands and
 * round trips per job, up to every parent released (same slot: its run included, one job
 * per {@value #CHILDREN_PER_PARENT}).</li>
 * <li>{@code flow.relay}: one parent with one child in another queue at a time; from the
 * child's handler returning to the parent in pending (polled every 0.2 ms), with the
 * prompt relay; {@code flow.relay.reap_only}: the same with the relay left to the reap
 * tick of another engine (what a crash of the completing node leaves, and all there was
 * before the prompt relay), default idle check.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class FlowFigure extends Figure {

	static final int CHILDREN_PER_PARENT = 1_000;

	static final int CONCURRENCY = 8;

	private static final int RELAY_SAMPLES = 300;

	private static final int REAP_ONLY_SAMPLES = 20;

	private static final int SMOKE_SAMPLES = 5;

	private static final String PARENTS = "bench-flow-parent";

	private static final String CHILDREN = "bench-flow-child";

	FlowFigure() {
		super("flow");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (String base : List.of("flow.plain", "flow.child.same_slot", "flow.child.other_slot")) {
			names.add(base);
			addMetrics(names, base, "server_us_per_job", "commands_per_job", "round_trips_per_job");
		}
		names.addAll(
				List.of("flow.relay.p50", "flow.relay.p99", "flow.relay.reap_only.p50", "flow.relay.reap_only.p99"));
		return names;
	}

	@Override
	public void warmUp(RunContext context) throws Exception {
		for (Kind kind : Kind.values()) {
			drain(context, kind, CHILDREN_PER_PARENT);
		}
		relay(context, SMOKE_SAMPLES, true);
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		List<Reading> readings = new ArrayList<>();
		int jobs = context.options().smoke() ? CHILDREN_PER_PARENT : 10 * CHILDREN_PER_PARENT;
		for (Kind kind : Kind.values()) {
			Measured m = drain(context, kind, jobs);
			readings.add(new Reading(kind.base, m.jobs * 1e9 / m.nanos, "jobs/s"));
			readings.add(new Reading(kind.base + ".server_us_per_job", m.serverSeconds * 1e6 / m.jobs, "us/job"));
			readings.add(new Reading(kind.base + ".commands_per_job", (double) m.commands / m.jobs, "commands/job"));
			readings
				.add(new Reading(kind.base + ".round_trips_per_job", (double) m.roundTrips / m.jobs, "commands/job"));
			context.note(String.format(
					"%s %d jobs at concurrency %d: %.0f jobs/s, server %.1f us/job, %.2f server commands/job "
							+ "(%.2f scripts/job), %.2f round trips/job",
					kind.base, m.jobs, CONCURRENCY, m.jobs * 1e9 / m.nanos, m.serverSeconds * 1e6 / m.jobs,
					(double) m.commands / m.jobs, (double) m.scripts / m.jobs, (double) m.roundTrips / m.jobs));
		}
		boolean smoke = context.options().smoke();
		for (boolean prompt : new boolean[] { true, false }) {
			Samples samples = relay(context, smoke ? SMOKE_SAMPLES : (prompt ? RELAY_SAMPLES : REAP_ONLY_SAMPLES),
					prompt);
			String base = prompt ? "flow.relay" : "flow.relay.reap_only";
			readings.add(new Reading(base + ".p50", samples.percentile(50) / 1e6, "ms"));
			readings.add(new Reading(base + ".p99", samples.percentile(99) / 1e6, "ms"));
			context.note(String.format(
					"%s %d samples (child handler return -> parent pending), p50 %.3f ms, "
							+ "p99 %.3f ms, max %.3f ms",
					base, samples.size(), samples.percentile(50) / 1e6, samples.percentile(99) / 1e6,
					samples.max() / 1e6));
		}
		return readings;
	}

	private enum Kind {

		PLAIN("flow.plain"), SAME_SLOT("flow.child.same_slot"), OTHER_SLOT("flow.child.other_slot");

		private final String base;

		Kind(String base) {
			this.base = base;
		}

	}

	private record Measured(long jobs, long nanos, double serverSeconds, long commands, long scripts, long roundTrips) {
	}

	private static Measured drain(RunContext context, Kind kind, int jobs) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		int parents = jobs / CHILDREN_PER_PARENT;
		try {
			String parentQueue = (kind == Kind.SAME_SLOT) ? CHILDREN : PARENTS;
			for (int p = 0; p < parents; p++) {
				fill(producer, kind, parentQueue);
			}
			long target = (kind == Kind.SAME_SLOT) ? jobs + parents : jobs;
			try (Consumers consumers = new ListenerConsumers(server.newEngine())) {
				server.resetStats();
				CommandStats before = server.commandStats();
				double serverCpu = server.cpuSeconds();
				long client = server.clientCommands();
				long start = System.nanoTime();
				consumers.start(CHILDREN, CONCURRENCY, (payload) -> {
				});
				Probes.awaitCompleted(consumers, target, 600);
				if (kind == Kind.OTHER_SLOT) {
					String pending = producer.keys(PARENTS).pending();
					while (sizeOf(server, pending) < parents) {
						LockSupport.parkNanos(200_000);
					}
				}
				long end = System.nanoTime();
				CommandStats stats = server.commandStats().minus(before);
				return new Measured(jobs, end - start, server.cpuSeconds() - serverCpu, stats.allCalls(),
						stats.scriptCalls(), server.clientCommands() - client);
			}
		}
		finally {
			producer.close();
			server.reset();
		}
	}

	private static void fill(Engine producer, Kind kind, String parentQueue) {
		List<String> payloads = Collections.nCopies(CHILDREN_PER_PARENT, Payloads.plain());
		if (kind == Kind.PLAIN) {
			for (int start = 0; start < CHILDREN_PER_PARENT; start += Engine.ENQUEUE_CHUNK) {
				producer.enqueues()
					.enqueueAll(CHILDREN, payloads.subList(start, start + Engine.ENQUEUE_CHUNK),
							EnqueueSpec.defaults());
			}
			return;
		}
		JobId parent = JobId.mint();
		List<JobId> ids = new ArrayList<>(CHILDREN_PER_PARENT);
		List<String> names = new ArrayList<>(CHILDREN_PER_PARENT);
		for (int i = 0; i < CHILDREN_PER_PARENT; i++) {
			JobId id = JobId.mint();
			ids.add(id);
			names.add(CHILDREN + "/" + id);
		}
		producer.flows().createParent(parentQueue, parent, Payloads.plain(), EnqueueSpec.defaults(), names, Map.of());
		Map<String, String> parentOf = Flows.childFields(CHILDREN, parentQueue, parent, ChildFailure.FAIL_PARENT);
		for (JobId id : ids) {
			producer.flows()
				.enqueueChild(CHILDREN, id, Payloads.plain(), EnqueueSpec.defaults(), parentOf, producer.enqueues());
		}
	}

	/**
	 * One flow at a time, a parent with one child in another queue: from the child's
	 * handler returning to the parent in pending.
	 */
	private static Samples relay(RunContext context, int count, boolean prompt) {
		BenchServer server = context.server();
		server.reset();
		Map<String, Long> returnedAt = new ConcurrentHashMap<>();
		Engine producer = server.newEngine();
		Engine reaper = server.newEngine();
		EchoMqMaintenance reapOnly = new EchoMqMaintenance(reaper, MaintenanceSettings.defaults(),
				() -> List.of(CHILDREN), ThreadPoolTaskScheduler::new, List.of());
		Samples samples = new Samples();
		Consumers consumers = prompt ? new ListenerConsumers(server.newEngine())
				: new EngineConsumers(server.newEngine(), server.connectionFactory());
		try (consumers) {
			if (!prompt) {
				reapOnly.start();
			}
			consumers.start(CHILDREN, 1, (payload) -> returnedAt.put(payload, System.nanoTime()));
			String pending = producer.keys(PARENTS).pending();
			for (int i = 0; i < count; i++) {
				String payload = "\"flow-" + i + "\"";
				JobId parent = JobId.mint();
				JobId child = JobId.mint();
				producer.flows()
					.createParent(PARENTS, parent, Payloads.plain(), EnqueueSpec.defaults(),
							List.of(CHILDREN + "/" + child), Map.of());
				producer.flows()
					.enqueueChild(CHILDREN, child, payload, EnqueueSpec.defaults(),
							Flows.childFields(CHILDREN, PARENTS, parent, ChildFailure.FAIL_PARENT),
							producer.enqueues());
				long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
				while (producer.executor().getTemplate().opsForZSet().score(pending, parent.toString()) == null) {
					if (System.nanoTime() - deadline > 0) {
						throw new IllegalStateException("Parent " + parent + " not released in 60 s");
					}
					LockSupport.parkNanos(200_000);
				}
				long released = System.nanoTime();
				Long returned = returnedAt.remove(payload);
				if (returned == null) {
					throw new IllegalStateException("Parent " + parent + " released before its child ran");
				}
				samples.add(released - returned);
			}
		}
		finally {
			reapOnly.stop();
			reaper.close();
			producer.close();
			server.reset();
		}
		return samples;
	}

	private static long sizeOf(BenchServer server, String key) {
		Long size = server.template().opsForZSet().size(key);
		return (size != null) ? size : 0;
	}

}
