package io.echomq.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.Retention;
import io.echomq.core.internal.Pages.Page;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * What an engine remembers between calls, in one place: its collaborators, the keys of
 * each queue, the server's clock as the last reply told it, and the per-queue caches its
 * parts share (the claim's hint and lane turns, the last pause seen, the members to
 * quarantine, the history bounds and the trim hints).
 *
 * @author EchoMQ
 */
final class EngineState {

	final Map<String, Page> hints = new ConcurrentHashMap<>();

	final Map<String, Long> pauses = new ConcurrentHashMap<>();

	final Suspects suspects = new Suspects();

	final Map<String, Retention> completedRetention = new ConcurrentHashMap<>();

	final Map<String, Retention> deadRetention = new ConcurrentHashMap<>();

	final Map<String, String[]> trimHints = new ConcurrentHashMap<>();

	final Map<String, Duration> resultTtls = new ConcurrentHashMap<>();

	final Map<String, Long> eventBounds = new ConcurrentHashMap<>();

	volatile long maxResultBytes = Results.DEFAULT_MAX_BYTES;

	volatile Duration resultTtl = Results.DEFAULT_TTL;

	final Map<String, String[]> deadTrimHints = new ConcurrentHashMap<>();

	final Set<String> laneQueues = ConcurrentHashMap.newKeySet();

	final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();

	private final ScriptExecutor executor;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final Scripts scripts = new Scripts();

	private final QueueSignals signals = new QueueSignals();

	private final Map<String, QueueKeys> queueKeys = new ConcurrentHashMap<>();

	private final ScriptCalls calls;

	private final Pages pages;

	private volatile long clockOffset;

	private volatile boolean clockKnown;

	EngineState(ScriptExecutor executor, Keyspace keyspace) {
		this.executor = executor;
		this.keyspace = keyspace;
		this.template = executor.getTemplate();
		this.calls = new ScriptCalls(this);
		this.pages = new Pages(this);
	}

	ScriptExecutor executor() {
		return this.executor;
	}

	Keyspace keyspace() {
		return this.keyspace;
	}

	StringRedisTemplate template() {
		return this.template;
	}

	Scripts scripts() {
		return this.scripts;
	}

	ScriptCalls calls() {
		return this.calls;
	}

	Pages pages() {
		return this.pages;
	}

	QueueSignals signals() {
		return this.signals;
	}

	/**
	 * A queue's keys, built (and its name validated) the first time the queue is named: a
	 * name that is not valid, {@code null} included, is refused as the keyspace refuses
	 * it.
	 */
	QueueKeys keys(String queue) {
		QueueKeys keys = (queue != null) ? this.queueKeys.get(queue) : null;
		if (keys == null) {
			keys = QueueKeys.of(this.keyspace, queue);
			QueueKeys known = this.queueKeys.putIfAbsent(queue, keys);
			keys = (known != null) ? known : keys;
		}
		return keys;
	}

	/**
	 * Declare a queue's event stream on a transition call when the queue writes events
	 * ({@link Events}): the stream key after every other key, the tag and the bound at
	 * the end of the arguments (events.lua). A queue that does not pays one map lookup.
	 */
	void declareEvents(String queue, List<String> keys, List<String> args) {
		Long bound = this.eventBounds.get(queue);
		if (bound != null) {
			keys.add(keys(queue).events());
			args.add(Events.TAG);
			args.add(Long.toString(bound));
		}
	}

	/**
	 * The bounds of a queue's history in a location.
	 */
	Retention retention(String queue, JobState location) {
		QueuePartitions.validateEngineName(queue);
		Assert.isTrue(location == JobState.COMPLETED || location == JobState.DEAD,
				() -> "only completed and dead keep history, not " + location.value());
		return (location == JobState.COMPLETED) ? this.completedRetention.getOrDefault(queue, Retention.NONE)
				: this.deadRetention.getOrDefault(queue, Retention.DEAD_DEFAULT);
	}

	/**
	 * Learn the server's clock from a script reply whose first element is its time.
	 */
	void learnClock(List<Object> reply) {
		if (!reply.isEmpty() && reply.get(0) instanceof Long serverNow) {
			this.clockOffset = serverNow - System.currentTimeMillis();
			this.clockKnown = true;
		}
	}

	boolean clockKnown() {
		return this.clockKnown;
	}

	long estimatedServerTime() {
		return System.currentTimeMillis() + this.clockOffset;
	}

	long serverTime() {
		Long time = this.template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				return cluster.serverCommands().time();
			}
			return connection.serverCommands().time();
		});
		return (time != null) ? time : System.currentTimeMillis();
	}

}
