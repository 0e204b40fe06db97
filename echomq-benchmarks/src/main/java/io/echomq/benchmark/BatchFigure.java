package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.FlowSpec;
import io.echomq.support.JacksonPayloadConverter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Batches (docs/flows.md#batches, issue 24), run only when named
 * ({@code --figures batch}):
 * <ul>
 * <li>{@code batch.cN.callback.p50}, {@code .p99}: a sealed batch of {@value #MEMBERS}
 * jobs with an {@code onSuccess} callback, drained by the listener at concurrency N (8,
 * 16); from the last member's handler returning to the callback's handler starting, over
 * {@value #BATCHES} batches per run.</li>
 * <li>{@code batch.cN.server_us_per_member}, {@code .commands_per_member} against
 * {@code batch.plain.cN.*} ({@value #MEMBERS} plain jobs): server CPU and commands from
 * the drain's start to the callback's handler starting (every member counted on the batch
 * row through the outbox), per member.</li>
 * <li>{@code batch.memory.*}: {@code used_memory} growth per member on writing an open
 * batch against per plain job on enqueueing as many; {@code MEMORY USAGE} of the batch
 * row per member while open and once finished; the outbox's peak record count during a
 * c16 drain and its bytes per record there.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class BatchFigure extends Figure {

	static final int MEMBERS = 10_000;

	static final int BATCHES = 5;

	private static final int SMOKE_MEMBERS = 200;

	private static final int SMOKE_BATCHES = 1;

	private static final List<Integer> CONCURRENCIES = List.of(8, 16);

	private static final String MEMBER_QUEUE = "bench-batch";

	private static final String CALLBACK_QUEUE = "bench-batch-done";

	private static final JsonNode PAYLOAD = JsonMapper.builder().build().readTree(Payloads.plain());

	BatchFigure() {
		super("batch");
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (int c : CONCURRENCIES) {
			addMetrics(names, "batch.c" + c, "callback.p50", "callback.p99", "server_us_per_member",
					"commands_per_member");
			addMetrics(names, "batch.plain.c" + c, "server_us_per_job", "commands_per_job");
		}
		addMetrics(names, "batch.memory", "used_per_member", "used_per_plain_job", "row_open_per_member",
				"row_finished_per_member", "outbox_peak_records", "outbox_bytes_per_record");
		return names;
	}

	@Override
	public void warmUp(RunContext context) throws Exception {
		if (context.options().smoke()) {
			return;
		}
		batch(context, 8, SMOKE_MEMBERS, false);
		plain(context, 8, SMOKE_MEMBERS);
	}

	@Override
	public List<Reading> run(RunContext context) throws Exception {
		boolean smoke = context.options().smoke();
		int members = smoke ? SMOKE_MEMBERS : MEMBERS;
		List<Reading> readings = new ArrayList<>();
		for (int c : CONCURRENCIES) {
			Samples latency = new Samples();
			double serverSeconds = 0;
			long commands = 0;
			int batches = smoke ? SMOKE_BATCHES : BATCHES;
			for (int b = 0; b < batches; b++) {
				Drained drained = batch(context, c, members, false);
				latency.add(drained.callbackNanos);
				serverSeconds += drained.serverSeconds;
				commands += drained.commands;
			}
			long total = (long) members * batches;
			Drained plain = plain(context, c, members);
			String base = "batch.c" + c;
			readings.add(new Reading(base + ".callback.p50", latency.percentile(50) / 1e6, "ms"));
			readings.add(new Reading(base + ".callback.p99", latency.percentile(99) / 1e6, "ms"));
			readings.add(new Reading(base + ".server_us_per_member", serverSeconds * 1e6 / total, "us/job"));
			readings.add(new Reading(base + ".commands_per_member", (double) commands / total, "commands/job"));
			readings.add(new Reading("batch.plain.c" + c + ".server_us_per_job", plain.serverSeconds * 1e6 / members,
					"us/job"));
			readings.add(new Reading("batch.plain.c" + c + ".commands_per_job", (double) plain.commands / members,
					"commands/job"));
			context.note(String
				.format("%s %d batches of %d: last member return -> callback start p50 %.2f ms, max %.2f ms; "
						+ "server %.1f us/member, %.2f commands/member (plain jobs: %.1f us/job, %.2f commands/job)",
						base, batches, members, latency.percentile(50) / 1e6, latency.max() / 1e6,
						serverSeconds * 1e6 / total, (double) commands / total, plain.serverSeconds * 1e6 / members,
						(double) plain.commands / members));
		}
		readings.addAll(memory(context, members));
		return readings;
	}

	private record Drained(long callbackNanos, double serverSeconds, long commands, long outboxPeak,
			long outboxPeakBytes) {
	}

	private static EchoMqTemplate template(Engine engine) {
		return new EchoMqTemplate(engine, new JacksonPayloadConverter(JsonMapper.builder().build()), 64 * 1024,
				(name) -> 3, List.of());
	}

	private static BatchSpec spec(int members) {
		List<FlowSpec> jobs = Collections.nCopies(members, FlowSpec.job(MEMBER_QUEUE, PAYLOAD));
		return BatchSpec.in(MEMBER_QUEUE).jobs(jobs).onSuccess(FlowSpec.job(CALLBACK_QUEUE, "done"));
	}

	/**
	 * Write a sealed batch, then drain it with the listener until the success callback's
	 * handler starts. With {@code watchOutbox}, the outbox is polled (costs commands and
	 * CPU, so only for the memory figures).
	 */
	private static Drained batch(RunContext context, int concurrency, int members, boolean watchOutbox) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		try {
			template(producer).batch(spec(members));
			return drain(context, concurrency, watchOutbox);
		}
		finally {
			producer.close();
			server.reset();
		}
	}

	private static Drained drain(RunContext context, int concurrency, boolean watchOutbox) {
		BenchServer server = context.server();
		AtomicLong lastReturn = new AtomicLong(Long.MIN_VALUE);
		AtomicLong calledAt = new AtomicLong();
		Engine engine = server.newEngine();
		String outbox = engine.keys(MEMBER_QUEUE).outbox();
		try (ListenerConsumers consumers = new ListenerConsumers(engine)) {
			server.resetStats();
			CommandStats before = server.commandStats();
			double serverCpu = server.cpuSeconds();
			consumers.start(CALLBACK_QUEUE, 1, (payload) -> calledAt.compareAndSet(0, System.nanoTime()));
			consumers.start(MEMBER_QUEUE, concurrency,
					(payload) -> lastReturn.accumulateAndGet(System.nanoTime(), Math::max));
			long deadline = System.nanoTime() + 600_000_000_000L;
			long peak = 0;
			long peakBytes = 0;
			while (calledAt.get() == 0) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException("No batch callback in 600 s");
				}
				if (watchOutbox) {
					Long records = server.template().opsForZSet().size(outbox);
					if (records != null && records > peak + peak / 10) {
						peak = records;
						peakBytes = server.memoryUsage(outbox);
					}
				}
				LockSupport.parkNanos(watchOutbox ? 2_000_000 : 200_000);
			}
			double cpu = server.cpuSeconds() - serverCpu;
			CommandStats stats = server.commandStats().minus(before);
			return new Drained(calledAt.get() - lastReturn.get(), cpu, stats.allCalls(), peak, peakBytes);
		}
	}

	private static Drained plain(RunContext context, int concurrency, int jobs) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		try {
			List<String> payloads = Payloads.plain(jobs);
			for (int start = 0; start < jobs; start += Engine.ENQUEUE_CHUNK) {
				producer.enqueues()
					.enqueueAll(MEMBER_QUEUE, payloads.subList(start, Math.min(jobs, start + Engine.ENQUEUE_CHUNK)),
							EnqueueSpec.defaults());
			}
			try (ListenerConsumers consumers = new ListenerConsumers(server.newEngine())) {
				server.resetStats();
				CommandStats before = server.commandStats();
				double serverCpu = server.cpuSeconds();
				consumers.start(MEMBER_QUEUE, concurrency, (payload) -> {
				});
				Probes.awaitCompleted(consumers, jobs, 600);
				double cpu = server.cpuSeconds() - serverCpu;
				CommandStats stats = server.commandStats().minus(before);
				return new Drained(0, cpu, stats.allCalls(), 0, 0);
			}
		}
		finally {
			producer.close();
			server.reset();
		}
	}

	private static List<Reading> memory(RunContext context, int members) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		try {
			long empty = server.usedMemory();
			List<String> payloads = Payloads.plain(members);
			for (int start = 0; start < members; start += Engine.ENQUEUE_CHUNK) {
				producer.enqueues()
					.enqueueAll(MEMBER_QUEUE, payloads.subList(start, Math.min(members, start + Engine.ENQUEUE_CHUNK)),
							EnqueueSpec.defaults());
			}
			double perPlain = (double) (server.usedMemory() - empty) / members;
			server.reset();
			empty = server.usedMemory();
			EchoMqTemplate template = template(producer);
			BatchJob batch = template.batch(spec(members).open());
			double perMember = (double) (server.usedMemory() - empty) / members;
			String row = producer.keys(MEMBER_QUEUE).batch(batch.id().toString());
			double rowOpen = (double) server.memoryUsage(row) / members;
			template.sealBatch(MEMBER_QUEUE, batch.id());
			Drained drained = drain(context, 16, true);
			double rowFinished = (double) server.memoryUsage(row) / members;
			double perRecord = (drained.outboxPeak > 0) ? (double) drained.outboxPeakBytes / drained.outboxPeak : 0;
			context.note(String.format(
					"batch.memory %d members: used_memory %.0f B/member (plain job %.0f B), batch row %.1f B/member "
							+ "open, %.1f B/member finished; outbox peak %d records, %.0f B/record (c16 drain)",
					members, perMember, perPlain, rowOpen, rowFinished, drained.outboxPeak, perRecord));
			return List.of(new Reading("batch.memory.used_per_member", perMember, "bytes"),
					new Reading("batch.memory.used_per_plain_job", perPlain, "bytes"),
					new Reading("batch.memory.row_open_per_member", rowOpen, "bytes"),
					new Reading("batch.memory.row_finished_per_member", rowFinished, "bytes"),
					new Reading("batch.memory.outbox_peak_records", drained.outboxPeak, "records"),
					new Reading("batch.memory.outbox_bytes_per_record", perRecord, "bytes"));
		}
		finally {
			producer.close();
			server.reset();
		}
	}

}
