package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.List;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;

import org.springframework.util.Assert;

/**
 * The engine: the job lifecycle verbs, handed out by what callers need. Each transition
 * is one atomic Lua script that names every key it touches in {@code KEYS[]} and reads
 * the time from the server.
 * <ul>
 * <li>{@link #enqueues()}: new jobs, to pending, schedule or a lane, and unique
 * enqueues;</li>
 * <li>{@link #claims()}: pending to active, within the queue's flow limits;</li>
 * <li>{@link #outcomes()}: complete, retry, snooze, dead-letter, extend and release a
 * claimed job, fenced by its token;</li>
 * <li>{@link #upkeep()}: reap, promote, trim history and quarantine, which the
 * maintenance ticks run;</li>
 * <li>{@link #admin()}: pause, resume, replay, delete, run now, cancel and purge.</li>
 * </ul>
 * Scripts that act on ids chosen from a set (claim, reap, promote) are given their
 * candidates by the caller, so that the candidates' row keys can be declared: a peek
 * ({@code ZRANGE}), or the hint a previous claim returned. A candidate that moved in
 * between is skipped by the script, never moved twice.
 * <p>
 * No script writes to what it could not validate. A member a verb cannot move (not a JOB
 * id, no row, a row breaking the row schema, a state naming another location) is left
 * exactly as it is and reported; claim, reap, promote and purge page past such members
 * however many there are, so they cannot stall a queue, and remember them as suspects.
 * Moving them out of the way is a transition of its own,
 * {@link Upkeep#quarantine(String, JobState, java.util.Collection) quarantine}, which the
 * maintenance ticks run for the suspects ({@link Upkeep#quarantineSuspects(String)}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class Engine implements EchoMqEngine {

	/** Most jobs written by one enqueue script call. */
	public static final int ENQUEUE_CHUNK = 200;

	/** The most jobs one {@code complete_all} call completes. */
	public static final int COMPLETE_BATCH = 64;

	private final EngineState state;

	private final Outcomes outcomes;

	private final Enqueues enqueues;

	private final Claims claims;

	private final Upkeep upkeep;

	private final QueueAdmin admin;

	private final StoredFormat formats;

	private final Results results;

	private final Awaits awaits;

	private final Events events;

	private final Flows flows;

	private final Batches batches;

	/**
	 * Create the engine on an executor and keyspace.
	 * @param executor the script executor
	 * @param keyspace the keyspace
	 */
	public Engine(ScriptExecutor executor, Keyspace keyspace) {
		Assert.notNull(executor, "'executor' must not be null");
		Assert.notNull(keyspace, "'keyspace' must not be null");
		this.state = new EngineState(executor, keyspace);
		this.results = new Results(this.state);
		this.outcomes = new Outcomes(this.state, this.results);
		this.formats = new StoredFormat(this.state);
		this.enqueues = new Enqueues(this.state, this.formats);
		this.claims = new Claims(this.state, this.outcomes);
		this.upkeep = new Upkeep(this.state);
		this.admin = new QueueAdmin(this.state);
		this.events = new Events(this.state);
		this.flows = new Flows(this.state, this.admin);
		this.batches = new Batches(this.state);
		this.awaits = new Awaits(this.state);
	}

	/**
	 * Return the engine behind a handle an application holds.
	 * @param engine the handle
	 * @return the engine
	 * @throws IllegalArgumentException if the handle is not an engine EchoMQ created
	 */
	public static Engine of(EchoMqEngine engine) {
		Assert.notNull(engine, "'engine' must not be null");
		if (engine instanceof Engine created) {
			return created;
		}
		throw new IllegalArgumentException("Not an engine EchoMQ created: " + engine.getClass().getName()
				+ "; create one with io.echomq.EchoMqEngines, or use the echomqEngine bean");
	}

	/**
	 * Return the batch side: batches of jobs whose callbacks run when they finish.
	 * @return the batches
	 */
	public Batches batches() {
		return this.batches;
	}

	/**
	 * Return the flow side: parents that wait for their children, and the relay.
	 * @return the flows
	 */
	public Flows flows() {
		return this.flows;
	}

	/**
	 * Return the enqueue verbs.
	 * @return the enqueues
	 */
	public Enqueues enqueues() {
		return this.enqueues;
	}

	/**
	 * Return the claim verbs.
	 * @return the claims
	 */
	public Claims claims() {
		return this.claims;
	}

	/**
	 * Return the outcomes of claimed jobs.
	 * @return the outcomes
	 */
	public Outcomes outcomes() {
		return this.outcomes;
	}

	/**
	 * Return the maintenance verbs and the history bounds.
	 * @return the upkeep
	 */
	public Upkeep upkeep() {
		return this.upkeep;
	}

	/**
	 * Return an operator's verbs on one queue.
	 * @return the admin verbs
	 */
	public QueueAdmin admin() {
		return this.admin;
	}

	/**
	 * Return the stored formats of the queues this engine uses.
	 * @return the format check
	 */
	public StoredFormat formats() {
		return this.formats;
	}

	/**
	 * Return the results' bounds and reads.
	 * @return the results
	 */
	public Results results() {
		return this.results;
	}

	/**
	 * Return the callers of this JVM awaiting jobs' outcomes; their Pub/Sub connection is
	 * opened by the first await and closed by {@link #close()}.
	 * @return the waiters
	 */
	public Waiters waiters() {
		return this.awaits.waiters();
	}

	/**
	 * Return the awaits of jobs' outcomes, which make the {@link #waiters()} when first
	 * used and again after {@link #close()}.
	 * @return the awaits
	 */
	public Awaits awaits() {
		return this.awaits;
	}

	/**
	 * Close what this engine opened beside its script calls: the waiters' Pub/Sub
	 * connection, if an await opened it. The connection factory is the caller's to close.
	 */
	@Override
	public void close() {
		this.awaits.close();
	}

	/**
	 * Return which queues write job events, and their bounds.
	 * @return the events
	 */
	public Events events() {
		return this.events;
	}

	/**
	 * Return the keyspace.
	 * @return the keyspace
	 */
	@Override
	public Keyspace keyspace() {
		return this.state.keyspace();
	}

	/**
	 * Return a queue's keys, built once per queue.
	 * @param queue the queue (or partition) name
	 * @return the keys
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 */
	public QueueKeys keys(String queue) {
		return this.state.keys(queue);
	}

	/**
	 * Return the script executor.
	 * @return the executor
	 */
	public ScriptExecutor executor() {
		return this.state.executor();
	}

	/**
	 * Return the in-process signals from this node's listeners to its maintenance ticks.
	 * @return the signals
	 */
	public QueueSignals signals() {
		return this.state.signals();
	}

	/**
	 * Return the scripts these verbs run.
	 * @return every script
	 */
	public List<Script> scripts() {
		List<Script> all = new ArrayList<>(this.state.scripts().all());
		all.addAll(this.claims.laneScripts());
		return all;
	}

	/**
	 * Read the server's time ({@code TIME}).
	 * @return the server time in epoch ms
	 */
	public long serverTime() {
		return this.state.serverTime();
	}

	/**
	 * Return the server time as last learned from a script reply, estimated from the
	 * local clock.
	 * @return the estimated server time in epoch ms
	 */
	public long estimatedServerTime() {
		return this.state.estimatedServerTime();
	}

}
