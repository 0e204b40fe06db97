package io.echomq.core.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.Retention;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What an engine's parts share: its collaborators, the keys of each queue, the server's
 * clock as the last reply told it, the event stream bounds, and the caches that more than
 * one part reads, each behind an owner with methods ({@link Retentions} for the history
 * bounds and trim hints, {@link Suspects} for the members to quarantine). A cache one
 * part alone uses is that part's own field (the claim's hints, pauses and lane turns in
 * {@link Claims}, the result limits in {@link Results}).
 *
 * @author EchoMQ
 */
final class EngineState {

	final Suspects suspects = new Suspects();

	final Retentions retentions = new Retentions();

	/** The max-length of the event stream of each queue that records events. */
	private final Map<String, Long> eventBounds = new ConcurrentHashMap<>();

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
	 * Set or clear the bound of a queue's event stream ({@link Events}).
	 */
	void eventBound(String queue, @Nullable Long maxLength) {
		if (maxLength != null) {
			this.eventBounds.put(queue, maxLength);
		}
		else {
			this.eventBounds.remove(queue);
		}
	}

	@Nullable Long eventBound(String queue) {
		return this.eventBounds.get(queue);
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
		return this.retentions.of(queue, location);
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
