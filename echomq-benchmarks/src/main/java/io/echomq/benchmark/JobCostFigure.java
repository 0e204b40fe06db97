package io.echomq.benchmark;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import io.echomq.core.internal.Engine;
import io.echomq.core.internal.Events;
import io.echomq.listener.JobHandler;
import io.echomq.listener.MethodJobHandler;
import io.echomq.support.JacksonPayloadConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * What results and job events cost per job, run only when named: the drain figure's drain
 * (pre-filled jobs, listeners at c{@value #CONCURRENCY}) once per variant, alternating
 * within each run, each measured as the drain figure measures (jobs/s, JVM and server CPU
 * per job, server script time per job).
 * <ul>
 * <li>{@code results}: {@code plain} (a lambda handler, the drain figure's), {@code void}
 * (a {@code void} handler method through {@link MethodJobHandler}) and {@code result100}
 * (a handler method returning a string the JSON converter writes as
 * {@value #RESULT_BYTES} bytes, stored by the completion); the queue has no retention, so
 * each result is a key with the results' time to live.</li>
 * <li>{@code events}: the plain drain with the queue's event stream off and on (default
 * bound, {@code MAXLEN ~ 10000}), enabled on the producer's and the listener's engines;
 * the drain holds the claimed and completed events.</li>
 * </ul>
 *
 * @author EchoMQ
 */
final class JobCostFigure extends Figure {

	static final int CONCURRENCY = 16;

	static final int RESULT_BYTES = 100;

	private static final String QUEUE = "bench-jobcost";

	private final List<String> variants;

	private JobCostFigure(String group, List<String> variants) {
		super(group);
		this.variants = variants;
	}

	static JobCostFigure results() {
		return new JobCostFigure("results", List.of("plain", "void", "result100"));
	}

	static JobCostFigure events() {
		return new JobCostFigure("events", List.of("off", "on"));
	}

	@Override
	public List<String> names(HarnessOptions options) {
		List<String> names = new ArrayList<>();
		for (String variant : this.variants) {
			String base = base(variant);
			names.add(base);
			addMetrics(names, base, "jvm_us_per_job", "server_us_per_job", "script_us_per_job", "commands_per_job");
		}
		return names;
	}

	private String base(String variant) {
		return group() + "." + variant + ".c" + CONCURRENCY;
	}

	@Override
	public void warmUp(RunContext context) {
		int jobs = Math.max(200, context.scale().drainJobs() / 10);
		for (String variant : this.variants) {
			drain(context, variant, jobs);
		}
	}

	@Override
	public List<Reading> run(RunContext context) {
		List<Reading> readings = new ArrayList<>();
		for (String variant : this.variants) {
			Drain drain = drain(context, variant, context.scale().drainJobs());
			String base = base(variant);
			readings.add(new Reading(base, drain.jobsPerSecond(), "jobs/s"));
			readings.add(new Reading(base + ".jvm_us_per_job", drain.jvmMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".server_us_per_job", drain.serverMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".script_us_per_job", drain.scriptMicrosPerJob(), "us/job"));
			readings.add(new Reading(base + ".commands_per_job", drain.commandsPerJob(), "commands/job"));
			context.note(String.format("%s %.0f jobs/s, JVM %.1f us/job, server %.1f us/job, script %.1f us/job", base,
					drain.jobsPerSecond(), drain.jvmMicrosPerJob(), drain.serverMicrosPerJob(),
					drain.scriptMicrosPerJob()));
		}
		return readings;
	}

	private static Drain drain(RunContext context, String variant, int jobs) {
		BenchServer server = context.server();
		server.reset();
		Engine producer = server.newEngine();
		boolean events = variant.equals("on");
		if (events) {
			producer.events().enable(QUEUE, Events.DEFAULT_MAX_LENGTH);
		}
		Probes.prefill(producer, QUEUE, jobs);
		JobHandler handler = switch (variant) {
			case "void" -> method("none");
			case "result100" -> method("result");
			default -> null;
		};
		Drain drain = Drain.run(context, () -> {
			ListenerConsumers listener = new ListenerConsumers(server.newEngine(), (engine, factory) -> {
				if (events) {
					engine.events().enable(QUEUE, Events.DEFAULT_MAX_LENGTH);
				}
			});
			return (handler != null) ? new WithHandler(listener, handler) : listener;
		}, List.of(QUEUE), CONCURRENCY, jobs);
		server.reset();
		return drain;
	}

	private static JobHandler method(String name) {
		try {
			Method method = Handlers.class.getDeclaredMethod(name);
			return MethodJobHandler.create(new Handlers(), method,
					new JacksonPayloadConverter(JsonMapper.builder().build()));
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The handler methods: one returns nothing, one a string written as
	 * {@value #RESULT_BYTES} bytes of JSON.
	 */
	static final class Handlers {

		static final String RESULT = "r".repeat(RESULT_BYTES - 2);

		void none() {
		}

		String result() {
			return RESULT;
		}

	}

	/**
	 * Listener consumers that run a listener handler instead of the drain's.
	 */
	private record WithHandler(ListenerConsumers consumers, JobHandler handler) implements Consumers {

		@Override
		public void start(String queue, int concurrency, BenchHandler ignored) {
			this.consumers.start(queue, concurrency, this.handler);
		}

		@Override
		public long completed() {
			return this.consumers.completed();
		}

		@Override
		public void close() {
			this.consumers.close();
		}

	}

}
