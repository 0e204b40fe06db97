package io.echomq.schedule.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.Events;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Script;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.core.internal.StoredFormat;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.OverlapPolicy;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.UnknownScheduleException;
import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * The recurring-schedule verbs: the store (put, remove, read) and the tick that fires due
 * occurrences.
 * <p>
 * A queue's schedules live under its own keys: {@link KeyType#SCHEDULES} (name to
 * definition), {@link KeyType#SCHEDULE_NEXT} (name scored by next fire time) and
 * {@link KeyType#SCHEDULE_LAST} (name to last fire time). The set
 * {@link Keyspace#scheduleQueuesKey()} indexes the queues that have schedules, so that
 * every node ticks them.
 * <p>
 * The tick is leader-free: every node reads the due schedules, plans each occurrence from
 * the stored definition ({@link FirePlan}) and runs {@code fire.lua}, which compares the
 * stored definition and next fire time with what it planned from, moves the next fire
 * time on and enqueues the occurrence in one atomic move. Of N nodes ticking one due
 * time, exactly one enqueues it. The occurrence's id is derived from (queue, schedule,
 * fire time), so it is the same whichever node fires it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class Schedules {

	/** Most due schedules one tick reads per queue and round. */
	public static final int BATCH = 100;

	/** Row field naming the schedule of an occurrence. */
	public static final String SCHEDULE_FIELD = "schedule";

	/** Row field holding the fire time (ms) of an occurrence. */
	public static final String FIRE_AT_FIELD = "fire_at";

	private static final LogAccessor logger = new LogAccessor(Schedules.class);

	private static final Script FIRE = Script.load("fire");

	private static final Script RESCHEDULE = Script.load("reschedule");

	private static final Script UNSCHEDULE = Script.load("unschedule");

	private static final Script TRIGGER = Script.load("trigger");

	private static final Script PAUSE = Script.load("schedule_pause");

	private static final String HELD = "held:";

	private static final String LAST_JOB = "job:";

	private final StoredFormat formats;

	private final Events events;

	private final Keyspace keyspace;

	private final ScriptExecutor executor;

	private final StringRedisTemplate template;

	private final RateLimitedLog payloadFailures = new RateLimitedLog(logger, Duration.ofSeconds(30));

	/**
	 * Create the verbs on the engine's executor and keyspace.
	 * @param jobs the engine
	 */
	public Schedules(Engine jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.formats = jobs.formats();
		this.events = jobs.events();
		this.keyspace = jobs.keyspace();
		this.executor = jobs.executor();
		this.template = this.executor.getTemplate();
	}

	/**
	 * Return the scripts these verbs run.
	 * @return every script
	 */
	public static List<Script> scripts() {
		return List.of(FIRE, RESCHEDULE, UNSCHEDULE, TRIGGER, PAUSE);
	}

	/**
	 * Put a schedule in the store. When the store holds the same definition, nothing
	 * changes (its next fire time stands); otherwise the definition is written with its
	 * next fire time after the server's current time, and every node's next tick uses it.
	 * A paused schedule stays paused (with no next fire time), changed or not.
	 * @param definition the schedule
	 * @return whether the store changed
	 */
	public boolean put(ScheduleDefinition definition) {
		Assert.notNull(definition, "'definition' must not be null");
		String queue = definition.queue();
		Instant next = definition.spec().nextAfter(serverTime());
		this.formats.check(queue);
		this.template.opsForSet().add(this.keyspace.scheduleQueuesKey(), queue);
		List<Object> reply = this.executor.execute(RESCHEDULE,
				List.of(key(queue, KeyType.SCHEDULES), key(queue, KeyType.SCHEDULE_NEXT)),
				List.of(definition.name(), ScheduleCodec.encode(definition),
						(next != null) ? Long.toString(next.toEpochMilli()) : "",
						ScheduleCodec.encode(definition, true)));
		return number(reply.get(1)) == 1;
	}

	/**
	 * Pause or resume a schedule on its record, in one script: a pause takes its next
	 * fire time away, a resume stores its first fire time after the server's current
	 * time.
	 * @param queue the queue
	 * @param name the schedule name
	 * @param paused {@code true} to pause, {@code false} to resume
	 * @return whether the record changed ({@code false} when it already was so)
	 * @throws UnknownScheduleException if the queue has no schedule of that name
	 */
	public boolean pause(String queue, String name, boolean paused) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		for (int attempt = 0;; attempt++) {
			String text = this.template.<String, String>opsForHash().get(key(queue, KeyType.SCHEDULES), name);
			if (text == null) {
				throw new UnknownScheduleException(queue, name);
			}
			ScheduleDefinition definition = ScheduleCodec.decode(queue, name, text);
			Instant next = paused ? null : definition.spec().nextAfter(serverTime());
			List<Object> reply = this.executor.execute(PAUSE,
					List.of(key(queue, KeyType.SCHEDULES), key(queue, KeyType.SCHEDULE_NEXT),
							key(queue, KeyType.SCHEDULE_LAST)),
					List.of(name, text, ScheduleCodec.encode(definition, paused), paused ? "1" : "0",
							(next != null) ? Long.toString(next.toEpochMilli()) : ""));
			if (number(reply.get(0)) != 0) {
				return number(reply.get(1)) == 1;
			}
			if ("NO_SCHEDULE".equals(string(reply.get(1)))) {
				throw new UnknownScheduleException(queue, name);
			}
			if (attempt == 2) {
				throw new IllegalStateException("Schedule '" + name + "' of queue '" + queue
						+ "' changed under three attempts to " + (paused ? "pause" : "resume") + " it; try again");
			}
		}
	}

	/**
	 * Remove a schedule. Occurrences already enqueued stay.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return whether it existed
	 */
	public boolean remove(String queue, String name) {
		ScheduleDefinition.validateName(name);
		return remove(queue, Map.of(name, "")) == 1;
	}

	/**
	 * Remove schedules whose stored definition is still the given text ({@code ""} for
	 * any).
	 * @param queue the queue
	 * @param definitions stored definition text by schedule name
	 * @return how many were removed
	 */
	public int remove(String queue, Map<String, String> definitions) {
		if (definitions.isEmpty()) {
			return 0;
		}
		List<String> args = new ArrayList<>(2 * definitions.size());
		definitions.forEach((name, text) -> {
			args.add(name);
			args.add(text);
		});
		List<Object> reply = this.executor.execute(UNSCHEDULE, List.of(key(queue, KeyType.SCHEDULES),
				key(queue, KeyType.SCHEDULE_NEXT), key(queue, KeyType.SCHEDULE_LAST)), args);
		return (int) number(reply.get(1));
	}

	/**
	 * Return the queues that have (or had) schedules, from the index.
	 * @return the queue names, sorted
	 */
	public Set<String> queues() {
		Set<String> members = this.template.opsForSet().members(this.keyspace.scheduleQueuesKey());
		Set<String> queues = new TreeSet<>();
		if (members != null) {
			for (String member : members) {
				if (isQueueName(member)) {
					queues.add(member);
				}
			}
		}
		return queues;
	}

	/**
	 * Return the stored definition texts of a queue's schedules.
	 * @param queue the queue
	 * @return definition text by name
	 */
	public Map<String, String> definitions(String queue) {
		Map<String, String> result = new TreeMap<>();
		this.template.<String, String>opsForHash()
			.entries(key(queue, KeyType.SCHEDULES))
			.forEach((name, text) -> result.put(name, text));
		return result;
	}

	/**
	 * Return a queue's schedules with their last and next fire times. A definition that
	 * cannot be read is logged and left out.
	 * @param queue the queue
	 * @return the schedules, by name
	 */
	public List<ScheduleState> list(String queue) {
		List<ScheduleState> states = new ArrayList<>();
		Map<String, String> definitions = definitions(queue);
		if (definitions.isEmpty()) {
			return states;
		}
		List<String> names = List.copyOf(definitions.keySet());
		List<Double> next = this.template.opsForZSet().score(key(queue, KeyType.SCHEDULE_NEXT), names.toArray());
		List<String> last = this.template.<String, String>opsForHash()
			.multiGet(key(queue, KeyType.SCHEDULE_LAST), names);
		for (int i = 0; i < names.size(); i++) {
			String name = names.get(i);
			try {
				String text = definitions.get(name);
				ScheduleDefinition definition = ScheduleCodec.decode(queue, name, text);
				Double score = (next != null) ? next.get(i) : null;
				String lastText = (last != null) ? last.get(i) : null;
				states.add(new ScheduleState(definition,
						(lastText != null) ? Instant.ofEpochMilli(Long.parseLong(lastText)) : null,
						(score != null) ? Instant.ofEpochMilli(score.longValue()) : null, ScheduleCodec.paused(text)));
			}
			catch (RuntimeException ex) {
				logger.warn(() -> "Skipping schedule '" + name + "' of queue '" + queue + "': " + ex.getMessage());
			}
		}
		return states;
	}

	/**
	 * Return one schedule.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the schedule, or {@code null} if the queue has none of that name
	 */
	public @Nullable ScheduleState get(String queue, String name) {
		for (ScheduleState state : list(queue)) {
			if (state.definition().name().equals(name)) {
				return state;
			}
		}
		return null;
	}

	/**
	 * Fire every due schedule of a queue, at most {@value #BATCH} per round, until none
	 * is due.
	 * @param queue the queue
	 * @param misfireThreshold how late a fire time may be and still count as on time
	 * @param maxAttempts the attempts each occurrence gets
	 * @param payloads the payload text of an occurrence of a definition
	 * @return the occurrences this node enqueued
	 */
	public List<ScheduleFire> tick(String queue, Duration misfireThreshold, int maxAttempts,
			Function<ScheduleDefinition, String> payloads) {
		return tick(queue, misfireThreshold, maxAttempts, payloads, this::serverTime);
	}

	/**
	 * Fire every due schedule of a queue as
	 * {@link #tick(String, Duration, int, Function)} does, planning with the given clock
	 * rather than the server's (the script still checks against server time that each
	 * fire time is due).
	 * @param queue the queue
	 * @param misfireThreshold how late a fire time may be and still count as on time
	 * @param maxAttempts the attempts each occurrence gets
	 * @param payloads the payload text of an occurrence of a definition
	 * @param clock the time the tick plans from
	 * @return the occurrences this node enqueued
	 */
	List<ScheduleFire> tick(String queue, Duration misfireThreshold, int maxAttempts,
			Function<ScheduleDefinition, String> payloads, Supplier<Instant> clock) {
		List<ScheduleFire> fired = new ArrayList<>();
		this.formats.check(queue);
		String nextKey = key(queue, KeyType.SCHEDULE_NEXT);
		for (int round = 0; round < 10; round++) {
			Instant now = clock.get();
			Set<TypedTuple<String>> due = this.template.opsForZSet()
				.rangeByScoreWithScores(nextKey, Double.NEGATIVE_INFINITY, now.toEpochMilli(), 0, BATCH);
			if (due == null || due.isEmpty()) {
				break;
			}
			boolean moved = false;
			for (TypedTuple<String> tuple : due) {
				String name = tuple.getValue();
				Double score = tuple.getScore();
				if (name == null || score == null) {
					continue;
				}
				String text = this.template.<String, String>opsForHash().get(key(queue, KeyType.SCHEDULES), name);
				if (text == null) {
					continue;
				}
				ScheduleDefinition definition;
				try {
					definition = ScheduleCodec.decode(queue, name, text);
				}
				catch (InvalidScheduleException ex) {
					logger.warn(() -> ex.getMessage() + "; it does not fire until it is put again");
					continue;
				}
				Instant expected = Instant.ofEpochMilli(score.longValue());
				// a catch-up fires its missed times one after the other
				for (int step = 0; step <= definition.spec().maxCatchUp(); step++) {
					FirePlan plan = FirePlan.plan(definition.spec(), expected, now, misfireThreshold,
							held(definition, expected));
					ScheduleFire fire = fire(definition, text, expected, plan, maxAttempts, payloads);
					moved |= fire != null || plan.fire() == null;
					if (fire != null) {
						fired.add(fire);
					}
					if (plan.next() == null || !plan.nextDue(now) || (fire == null && plan.fire() != null)) {
						break;
					}
					expected = plan.next();
				}
			}
			if (due.size() < BATCH || !moved) {
				break;
			}
		}
		return fired;
	}

	private boolean held(ScheduleDefinition definition, Instant expected) {
		if (definition.spec().overlap() != OverlapPolicy.HOLD_ONE) {
			return false;
		}
		String held = this.template.<String, String>opsForHash()
			.get(key(definition.queue(), KeyType.SCHEDULE_LAST), HELD + definition.name());
		return Long.toString(expected.toEpochMilli()).equals(held);
	}

	private @Nullable ScheduleFire fire(ScheduleDefinition definition, String text, Instant expected, FirePlan plan,
			int maxAttempts, Function<ScheduleDefinition, String> payloads) {
		String queue = definition.queue();
		JobId id = occurrenceId(queue, definition.name(), expected);
		String payload = "";
		if (plan.fire() != null) {
			try {
				payload = payloads.apply(definition);
			}
			catch (RuntimeException ex) {
				// the fire time stays due: the next tick tries again
				this.payloadFailures.warn(ex, () -> "Payload of schedule '" + definition.name() + "' of queue '" + queue
						+ "' for " + expected + " failed; not fired");
				return null;
			}
		}
		List<String> keys = new ArrayList<>(List.of(key(queue, KeyType.SCHEDULES), key(queue, KeyType.SCHEDULE_NEXT),
				key(queue, KeyType.SCHEDULE_LAST), key(queue, KeyType.PENDING), key(queue, KeyType.SCHEDULE),
				key(queue, KeyType.METRICS), key(queue, KeyType.WAKE), this.keyspace.jobKey(queue, id)));
		List<String> args = new ArrayList<>(List.of(definition.name(), text, Long.toString(expected.toEpochMilli()),
				(plan.next() != null) ? Long.toString(plan.next().toEpochMilli()) : "",
				(plan.fire() != null) ? "1" : "0", id.toString(), payload, Integer.toString(maxAttempts)));
		OverlapPolicy overlap = definition.spec().overlap();
		if (overlap != OverlapPolicy.ALLOW && plan.fire() != null) {
			String previous = this.template.<String, String>opsForHash()
				.get(key(queue, KeyType.SCHEDULE_LAST), LAST_JOB + definition.name());
			keys.add(key(queue, KeyType.ACTIVE));
			args.add(overlap.name());
			if (previous != null && JobId.isValid(previous)) {
				keys.add(this.keyspace.jobKey(queue, JobId.parse(previous)));
				args.add(previous);
			}
			else {
				args.add("");
			}
		}
		this.events.declare(queue, keys, args);
		List<Object> reply = this.executor.execute(FIRE, keys, args);
		if (number(reply.get(0)) == 0) {
			logger.trace(() -> "Schedule '" + definition.name() + "' of queue '" + queue + "' not fired here: "
					+ string(reply.get(1)) + " " + string(reply.get(2)));
			return null;
		}
		if (!"FIRED".equals(string(reply.get(1)))) {
			logger.trace(() -> "Schedule '" + definition.name() + "' of queue '" + queue + "' for " + expected + ": "
					+ string(reply.get(1)));
			return null;
		}
		return new ScheduleFire(queue, definition.name(), expected, id, false);
	}

	/**
	 * Enqueue an occurrence of a schedule now, whatever its next fire time (which stays
	 * as it is); its last fire time becomes now, in the same move.
	 * @param queue the queue
	 * @param name the schedule name
	 * @param maxAttempts the attempts the occurrence gets
	 * @param payloads the payload text of an occurrence of a definition
	 * @return the occurrence, or {@code null} if the queue has no schedule of that name
	 */
	public @Nullable ScheduleFire trigger(String queue, String name, int maxAttempts,
			Function<ScheduleDefinition, String> payloads) {
		ScheduleDefinition.validateName(name);
		String text = this.template.<String, String>opsForHash().get(key(queue, KeyType.SCHEDULES), name);
		if (text == null) {
			return null;
		}
		ScheduleDefinition definition = ScheduleCodec.decode(queue, name, text);
		this.formats.check(queue);
		JobId id = JobId.mint();
		List<String> keys = new ArrayList<>(List.of(key(queue, KeyType.SCHEDULES), key(queue, KeyType.SCHEDULE_LAST),
				key(queue, KeyType.PENDING), key(queue, KeyType.SCHEDULE), key(queue, KeyType.METRICS),
				key(queue, KeyType.WAKE), this.keyspace.jobKey(queue, id)));
		List<String> args = new ArrayList<>(
				List.of(name, text, id.toString(), payloads.apply(definition), Integer.toString(maxAttempts)));
		this.events.declare(queue, keys, args);
		List<Object> reply = this.executor.execute(TRIGGER, keys, args);
		long now = number(reply.get(0));
		if (now == 0) {
			logger.debug(() -> "Schedule '" + name + "' of queue '" + queue + "' not triggered: " + string(reply.get(1))
					+ " " + string(reply.get(2)));
			return null;
		}
		return new ScheduleFire(queue, name, Instant.ofEpochMilli(now), id, true);
	}

	/**
	 * Return the id of a schedule's occurrence for a fire time: the same on every node.
	 * @param queue the queue
	 * @param name the schedule name
	 * @param fireTime the fire time
	 * @return the id
	 */
	public static JobId occurrenceId(String queue, String name, Instant fireTime) {
		return JobId.derive(fireTime, queue + '\n' + name + '\n' + fireTime.toEpochMilli());
	}

	/**
	 * Return the server's time.
	 * @return the time, millisecond precision
	 */
	public Instant serverTime() {
		Long time = this.template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				return cluster.serverCommands().time();
			}
			return connection.serverCommands().time();
		});
		return (time != null) ? Instant.ofEpochMilli(time) : Instant.now();
	}

	private String key(String queue, KeyType type) {
		return this.keyspace.queueKey(queue, type.suffix());
	}

	private static boolean isQueueName(String name) {
		try {
			Keyspace.validateQueueName(name);
			return true;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static long number(@Nullable Object value) {
		return (value instanceof Long number) ? number : Long.parseLong(string(value));
	}

	private static String string(@Nullable Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
	}

}
