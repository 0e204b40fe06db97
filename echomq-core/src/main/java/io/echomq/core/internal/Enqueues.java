package io.echomq.core.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.EnqueueOutcomeUnknownException;
import io.echomq.core.EnqueueResult;
import io.echomq.core.JobId;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.QueuePartitions;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.core.UniqueKey;
import io.echomq.core.UniqueMode;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The enqueue side of the engine: new jobs to pending, to schedule or to a lane, in
 * chunks of {@value Engine#ENQUEUE_CHUNK} per script call, and the enqueue of a job with
 * a unique key.
 *
 * @author EchoMQ
 */
public final class Enqueues extends EnginePart {

	private static final int MAX_UNIQUE_ROUNDS = 8;

	private final StoredFormat formats;

	private final Map<String, Duration> defaultExpiries = new ConcurrentHashMap<>();

	Enqueues(EngineState state, StoredFormat formats) {
		super(state);
		this.formats = formats;
	}

	/**
	 * Set a queue's default expiry: a job enqueued to it (to any of its partitions)
	 * without an expiry of its own must be claimed within that long of becoming due (its
	 * enqueue, or its delay or run-at), or it never runs ({@code includes/expire.lua}).
	 * @param queue the logical queue name
	 * @param expiry the expiry, at least 1 ms, or {@code null} for none
	 */
	public void setDefaultExpiry(String queue, @Nullable Duration expiry) {
		if (expiry == null) {
			this.defaultExpiries.remove(queue);
			return;
		}
		Assert.isTrue(expiry.toMillis() > 0,
				() -> "the default expiry of queue '" + queue + "' must be at least 1ms, was " + expiry);
		this.defaultExpiries.put(queue, expiry);
	}

	/**
	 * Enqueue one job: to pending, or to schedule when it is delayed.
	 * @param queue the queue
	 * @param payload the payload text
	 * @param spec how to enqueue it
	 * @return the new job's id
	 */
	public JobId enqueue(String queue, String payload, EnqueueSpec spec) {
		return enqueueAll(queue, List.of(payload), spec).get(0);
	}

	/**
	 * Enqueue many jobs with one spec, {@value Engine#ENQUEUE_CHUNK} per script call, the
	 * calls pipelined on a standalone server. Each chunk is all-or-nothing.
	 * @param queue the queue
	 * @param payloads the payload texts
	 * @param spec how to enqueue them
	 * @return the new ids, in payload order
	 * @throws ServerOutOfMemoryException if the server refused every chunk (nothing was
	 * written)
	 * @throws PartialEnqueueException if some chunks were written and others were not,
	 * naming the jobs that were
	 * @throws EnqueueOutcomeUnknownException if no chunk got an answer (nothing known to
	 * be written, nothing known not to be)
	 */
	public List<JobId> enqueueAll(String queue, List<String> payloads, EnqueueSpec spec) {
		Assert.notNull(payloads, "'payloads' must not be null");
		List<JobId> ids = new ArrayList<>(payloads.size());
		for (int i = 0; i < payloads.size(); i++) {
			ids.add(JobId.mint());
		}
		enqueueAll(queue, ids, payloads, spec);
		return ids;
	}

	/**
	 * Enqueue many jobs under ids the caller minted (with {@link JobId#mint()}, so that
	 * their byte order is their enqueue order), {@value Engine#ENQUEUE_CHUNK} per script
	 * call, the calls pipelined on a standalone server. Each chunk is all-or-nothing; a
	 * chunk whose id already has a row writes nothing.
	 * @param queue the queue
	 * @param ids the ids, one per payload
	 * @param payloads the payload texts
	 * @param spec how to enqueue them
	 */
	public void enqueueAll(String queue, List<JobId> ids, List<String> payloads, EnqueueSpec spec) {
		Assert.notNull(ids, "'ids' must not be null");
		Assert.notNull(payloads, "'payloads' must not be null");
		Assert.isTrue(ids.size() == payloads.size(),
				() -> "one id per payload: " + ids.size() + " ids for " + payloads.size() + " payloads");
		Assert.notNull(spec, "'spec' must not be null");
		if (spec.unique() != null) {
			throw new IllegalArgumentException("A unique key (" + spec.unique().name()
					+ ") names one job: enqueue it with enqueueUnique, not enqueueAll of " + payloads.size());
		}
		List<ScriptExecutor.Invocation> calls = new ArrayList<>();
		for (int start = 0; start < payloads.size(); start += Engine.ENQUEUE_CHUNK) {
			List<String> chunk = payloads.subList(start, Math.min(payloads.size(), start + Engine.ENQUEUE_CHUNK));
			List<String> keys = enqueueKeys(queue, chunk.size());
			List<String> args = enqueueArgs(queue, spec, chunk.size());
			for (int i = 0; i < chunk.size(); i++) {
				String payload = chunk.get(i);
				JobId id = ids.get(start + i);
				Assert.notNull(payload, "payloads must not contain null");
				Assert.notNull(id, "ids must not contain null");
				keys.add(this.state.keys(queue).row(id));
				args.add(id.toString());
				args.add(payload);
			}
			if (spec.lane() != null) {
				keys.add(this.state.keys(queue).lane(spec.lane(), LaneKeyType.PENDING));
				keys.add(this.state.keys(queue).lanes());
				keys.add(this.state.keys(queue).laneControls());
			}
			this.state.declareEvents(queue, keys, args);
			calls.add(new ScriptExecutor.Invocation(keys, args));
		}
		this.formats.check(queue);
		List<ScriptExecutor.Outcome> outcomes = this.executor.executeAll(this.scripts.enqueue, calls);
		List<JobId> enqueued = new ArrayList<>(ids.size());
		List<JobId> unknown = new ArrayList<>();
		RuntimeException failure = null;
		for (int i = 0; i < outcomes.size(); i++) {
			ScriptExecutor.Outcome outcome = outcomes.get(i);
			List<JobId> chunk = ids.subList(i * Engine.ENQUEUE_CHUNK,
					Math.min(ids.size(), (i + 1) * Engine.ENQUEUE_CHUNK));
			switch (outcome.status()) {
				case APPLIED -> {
					this.state.learnClock(outcome.reply());
					enqueued.addAll(chunk);
				}
				case UNKNOWN -> unknown.addAll(chunk);
				default -> {
				}
			}
			if (failure == null && outcome.failure() != null) {
				failure = outcome.failure();
			}
		}
		if (failure == null) {
			return;
		}
		if (enqueued.isEmpty() && unknown.isEmpty()) {
			throw failure;
		}
		if (enqueued.isEmpty() && unknown.size() == ids.size()) {
			throw new EnqueueOutcomeUnknownException(queue, unknown, failure);
		}
		throw new PartialEnqueueException(queue, ids.size(), enqueued, unknown, failure);
	}

	/**
	 * Enqueue one job with a {@linkplain EnqueueSpec#unique() unique key}, in one script
	 * that checks the key and writes the job and the key together: exactly one of many
	 * concurrent enqueues with a free key creates a job, the others find it.
	 * <ul>
	 * <li>{@link UniqueMode#UNTIL_DONE}: a held key answers {@code DUPLICATE} with its
	 * holder, as long as the holder is pending, scheduled or active.</li>
	 * <li>{@link UniqueMode#THROTTLE}: a key (alive for its window, server time) answers
	 * {@code DUPLICATE}, whatever became of its job.</li>
	 * <li>{@link UniqueMode#DEBOUNCE}: a waiting holder takes the payload and runs the
	 * window from now ({@code DEBOUNCED}); a running holder leaves the key to a new
	 * job.</li>
	 * </ul>
	 * A key held by a job that is gone (a leak the audit reports) is taken over. When the
	 * key is held, the script needs its holder's row declared; it says so and this method
	 * calls again with it (two round trips for a duplicate, one otherwise).
	 * @param queue the queue
	 * @param id the new job's id, minted by the caller
	 * @param payload the payload text
	 * @param spec how to enqueue it, with a unique key
	 * @return the job that holds the key and whether it is the new one
	 * @throws IllegalStateException if the key changed hands on each of several calls
	 */
	public EnqueueResult enqueueUnique(String queue, JobId id, String payload, EnqueueSpec spec) {
		Assert.notNull(id, "'id' must not be null");
		Assert.notNull(payload, "'payload' must not be null");
		Assert.notNull(spec, "'spec' must not be null");
		UniqueKey unique = spec.unique();
		Assert.notNull(unique, "'spec' must have a unique key");
		String uniqueKey = this.state.keyspace().uniqueKey(queue, unique.name());
		this.formats.check(queue);
		String holder = null;
		for (int round = 0; round < MAX_UNIQUE_ROUNDS; round++) {
			List<String> keys = enqueueKeys(queue, 1);
			keys.add(this.state.keys(queue).row(id));
			if (spec.lane() != null) {
				keys.add(this.state.keys(queue).lane(spec.lane(), LaneKeyType.PENDING));
				keys.add(this.state.keys(queue).lanes());
				keys.add(this.state.keys(queue).laneControls());
			}
			keys.add(uniqueKey);
			if (holder != null) {
				keys.add(this.state.keys(queue).rowPrefix() + holder);
			}
			List<String> args = enqueueArgs(queue, spec, 1);
			args.add(id.toString());
			args.add(payload);
			this.state.declareEvents(queue, keys, args);
			List<Object> reply = this.executor.execute(this.scripts.enqueue, keys, args);
			this.state.learnClock(reply);
			String outcome = Replies.string(reply.get(3));
			String standing = Replies.string(reply.get(4));
			switch (outcome) {
				case "created":
					return new EnqueueResult(id, EnqueueResult.Outcome.CREATED);
				case "duplicate":
					return new EnqueueResult(JobId.parse(standing), EnqueueResult.Outcome.DUPLICATE);
				case "debounced":
					return new EnqueueResult(JobId.parse(standing), EnqueueResult.Outcome.DEBOUNCED);
				case "held":
					if (!JobId.isValid(standing)) {
						throw new IllegalStateException("Unique key " + uniqueKey + " holds '" + standing
								+ "', which is not a JOB id; nothing was written (the audit reports the key)");
					}
					holder = standing;
					break;
				default:
					throw new IllegalStateException("Unexpected enqueue outcome '" + outcome + "'");
			}
		}
		throw new IllegalStateException("Unique key " + uniqueKey + " changed hands on each of " + MAX_UNIQUE_ROUNDS
				+ " tries; nothing was written");
	}

	private List<String> enqueueKeys(String queue, int jobs) {
		return this.state.keys(queue).forEnqueue(2 + jobs);
	}

	private List<String> enqueueArgs(String queue, EnqueueSpec given, int jobs) {
		EnqueueSpec spec = expiring(queue, given);
		Map<String, String> rowFields = spec.rowFields();
		List<String> args = new ArrayList<>(5 + 2 * rowFields.size() + 2 * jobs);
		args.add(Integer.toString(spec.maxAttempts()));
		args.add(Integer.toString(spec.priority()));
		args.add(Long.toString(spec.delay().toMillis()));
		args.add((spec.runAt() != null) ? Long.toString(spec.runAt().toEpochMilli()) : "");
		args.add(Integer.toString(rowFields.size()));
		args.add((spec.lane() != null) ? spec.lane() : "");
		rowFields.forEach((name, value) -> {
			args.add(name);
			args.add(value);
		});
		return args;
	}

	/**
	 * The spec with the queue's default expiry when it has none of its own: counted from
	 * when the job becomes due, so a delayed job keeps all of it.
	 */
	private EnqueueSpec expiring(String queue, EnqueueSpec spec) {
		Duration expiry = this.defaultExpiries.isEmpty() ? null
				: this.defaultExpiries.get(QueuePartitions.logicalName(queue));
		if (expiry == null || spec.expiry() != null || spec.expiresAt() != null) {
			return spec;
		}
		Instant runAt = spec.runAt();
		return (runAt != null) ? spec.withExpiry(null, runAt.plus(expiry))
				: spec.withExpiry(spec.delay().plus(expiry), null);
	}

}
