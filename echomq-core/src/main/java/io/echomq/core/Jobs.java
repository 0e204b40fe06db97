package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * The job lifecycle verbs. Each transition is one atomic Lua script that names every
 * key it touches in {@code KEYS[]} and reads the time from the server.
 * <p>
 * Scripts that act on ids chosen from a set (claim, reap, promote) are given their
 * candidates by the caller, so that the candidates' row keys can be declared: a peek
 * ({@code ZRANGE}), or the hint a previous claim returned. A candidate that moved in
 * between is skipped by the script, never moved twice.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class Jobs {

	/** Most jobs written by one enqueue script call. */
	public static final int ENQUEUE_CHUNK = 200;

	private static final int MAX_CLAIM_ROUNDS = 3;

	private static final long DUE_TOLERANCE_MS = 2_000;

	private static final int PEEK_SLACK = 16;

	private static final String[] NO_IDS = {};

	private final ScriptExecutor executor;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final Scripts scripts = new Scripts();

	private final Map<String, String[]> hints = new ConcurrentHashMap<>();

	private volatile long clockOffset;

	private volatile boolean clockKnown;

	/**
	 * Create the verbs on an executor and keyspace.
	 * @param executor the script executor
	 * @param keyspace the keyspace
	 */
	public Jobs(ScriptExecutor executor, Keyspace keyspace) {
		Assert.notNull(executor, "'executor' must not be null");
		Assert.notNull(keyspace, "'keyspace' must not be null");
		this.executor = executor;
		this.keyspace = keyspace;
		this.template = executor.getTemplate();
	}

	/**
	 * Return the keyspace.
	 * @return the keyspace
	 */
	public Keyspace keyspace() {
		return this.keyspace;
	}

	/**
	 * Return the script executor.
	 * @return the executor
	 */
	public ScriptExecutor executor() {
		return this.executor;
	}

	/**
	 * Return the scripts these verbs run.
	 * @return every script
	 */
	public List<Script> scripts() {
		return this.scripts.all();
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
	 * Enqueue many jobs with one spec, {@value #ENQUEUE_CHUNK} per script call, the calls
	 * pipelined on a standalone server. Each chunk is all-or-nothing.
	 * @param queue the queue
	 * @param payloads the payload texts
	 * @param spec how to enqueue them
	 * @return the new ids, in payload order
	 * @throws ServerOutOfMemoryException if the server refused every chunk (nothing was
	 * written)
	 * @throws PartialEnqueueException if some chunks were written and others were not,
	 * naming the jobs that were
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
	 * their byte order is their enqueue order), {@value #ENQUEUE_CHUNK} per script call,
	 * the calls pipelined on a standalone server. Each chunk is all-or-nothing; a chunk
	 * whose id already has a row writes nothing.
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
		String pending = this.keyspace.queueKey(queue, KeyType.PENDING);
		List<ScriptExecutor.Invocation> calls = new ArrayList<>();
		for (int start = 0; start < payloads.size(); start += ENQUEUE_CHUNK) {
			List<String> chunk = payloads.subList(start, Math.min(payloads.size(), start + ENQUEUE_CHUNK));
			List<String> keys = new ArrayList<>(4 + chunk.size());
			keys.add(pending);
			keys.add(this.keyspace.queueKey(queue, KeyType.SCHEDULE));
			keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
			keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
			Map<String, String> rowFields = spec.rowFields();
			List<String> args = new ArrayList<>(5 + 2 * rowFields.size() + 2 * chunk.size());
			args.add(Integer.toString(spec.maxAttempts()));
			args.add(Integer.toString(spec.priority()));
			args.add(Long.toString(spec.delay().toMillis()));
			args.add((spec.runAt() != null) ? Long.toString(spec.runAt().toEpochMilli()) : "");
			args.add(Integer.toString(rowFields.size()));
			rowFields.forEach((name, value) -> {
				args.add(name);
				args.add(value);
			});
			for (int i = 0; i < chunk.size(); i++) {
				String payload = chunk.get(i);
				JobId id = ids.get(start + i);
				Assert.notNull(payload, "payloads must not contain null");
				Assert.notNull(id, "ids must not contain null");
				keys.add(this.keyspace.jobKey(queue, id));
				args.add(id.toString());
				args.add(payload);
			}
			calls.add(new ScriptExecutor.Invocation(keys, args));
		}
		List<ScriptExecutor.Outcome> outcomes = this.executor.executeAll(this.scripts.enqueue, calls);
		List<JobId> enqueued = new ArrayList<>(ids.size());
		List<JobId> unknown = new ArrayList<>();
		RuntimeException failure = null;
		for (int i = 0; i < outcomes.size(); i++) {
			ScriptExecutor.Outcome outcome = outcomes.get(i);
			List<JobId> chunk = ids.subList(i * ENQUEUE_CHUNK, Math.min(ids.size(), (i + 1) * ENQUEUE_CHUNK));
			switch (outcome.status()) {
				case APPLIED -> {
					learnClock(outcome.reply());
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
		throw new PartialEnqueueException(queue, ids.size(), enqueued, unknown, failure);
	}

	/**
	 * Claim up to {@code max} jobs: pending to active, each with a fresh fencing token
	 * and a lease of {@code lease} from server time.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @return the claimed jobs, possibly none
	 */
	public List<ClaimedJob> claim(String queue, Duration lease, int max) {
		requirePositive(lease, "lease");
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		String pending = this.keyspace.queueKey(queue, KeyType.PENDING);
		String active = this.keyspace.queueKey(queue, KeyType.ACTIVE);
		String rows = this.keyspace.jobKeyPrefix(queue);
		List<ClaimedJob> claimed = new ArrayList<>();
		String[] candidates = this.hints.remove(queue);
		if (candidates == null || candidates.length == 0) {
			candidates = peek(pending, max);
		}
		for (int round = 0; round < MAX_CLAIM_ROUNDS && candidates.length > 0 && claimed.size() < max; round++) {
			int want = max - claimed.size();
			List<String> keys = new ArrayList<>(2 + candidates.length);
			keys.add(pending);
			keys.add(active);
			List<String> args = new ArrayList<>(3 + candidates.length);
			args.add(Long.toString(lease.toMillis()));
			args.add(Integer.toString(want));
			args.add(Integer.toString(max));
			for (String candidate : candidates) {
				keys.add(rows + candidate);
				args.add(candidate);
			}
			List<Object> reply = this.executor.execute(this.scripts.claim, keys, args);
			Instant now = Replies.instant(reply.get(0));
			learnClock(reply);
			Instant deadline = Replies.instant(reply.get(1));
			for (int i = 2; i < reply.size() - 2; i++) {
				List<Object> entry = Replies.list(reply.get(i));
				claimed.add(toClaimedJob(queue, Replies.string(entry.get(0)), Replies.hash(entry.get(1)), now,
						deadline));
			}
			candidates = toIds(Replies.list(reply.get(reply.size() - 2)));
		}
		if (candidates.length > 0) {
			this.hints.put(queue, candidates);
		}
		return claimed;
	}

	/**
	 * Complete a job: active to done, the row retired.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token) {
		List<Object> reply = this.executor.execute(this.scripts.complete,
				List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.jobKey(queue, id),
						this.keyspace.queueKey(queue, KeyType.METRICS)),
				List.of(id.toString(), argument(token)));
		return Replies.fenced(reply);
	}

	/**
	 * Fail an attempt: active to schedule after {@code backoff} (to pending when the
	 * backoff is zero), or to dead when it was the last attempt.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the error text kept on the row
	 * @param backoff how long to wait before the next attempt
	 * @return applied with the new state, or stale
	 */
	public TransitionResult retry(String queue, JobId id, FencingToken token, String error, Duration backoff) {
		Assert.isTrue(backoff != null && !backoff.isNegative(), () -> "backoff must not be negative, was " + backoff);
		return fail(queue, id, token, error, backoff, false);
	}

	/**
	 * Dead-letter a job at once, whatever attempts it has left (an unreadable payload,
	 * a fatal error).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the reason kept on the row
	 * @return applied, or stale
	 */
	public TransitionResult deadLetter(String queue, JobId id, FencingToken token, String error) {
		return fail(queue, id, token, error, Duration.ZERO, true);
	}

	private TransitionResult fail(String queue, JobId id, FencingToken token, String error, Duration backoff, boolean dead) {
		Assert.notNull(error, "'error' must not be null");
		List<Object> reply = this.executor.execute(this.scripts.retry,
				List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.queueKey(queue, KeyType.SCHEDULE),
						this.keyspace.queueKey(queue, KeyType.DEAD), this.keyspace.queueKey(queue, KeyType.PENDING),
						this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.METRICS),
						this.keyspace.queueKey(queue, KeyType.WAKE)),
				List.of(id.toString(), argument(token), error, Long.toString(backoff.toMillis()), dead ? "1" : "0"));
		TransitionResult result = Replies.fenced(reply);
		if (result.isStale()) {
			return result;
		}
		return TransitionResult.applied(JobState.fromValue(Replies.string(reply.get(1))),
				Replies.instant(reply.get(2)));
	}

	/**
	 * Renew a job's lease to {@code lease} from server time.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param lease the new lease
	 * @return applied with the new deadline, or stale
	 */
	public TransitionResult extend(String queue, JobId id, FencingToken token, Duration lease) {
		requirePositive(lease, "lease");
		List<Object> reply = this.executor.execute(this.scripts.extend,
				List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.jobKey(queue, id)),
				List.of(id.toString(), argument(token), Long.toString(lease.toMillis())));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.ACTIVE, Replies.instant(reply.get(1)));
	}

	/**
	 * Hand a claimed job back: active to pending, without spending an attempt (graceful
	 * stop).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @return applied, or stale
	 */
	public TransitionResult release(String queue, JobId id, FencingToken token) {
		List<Object> reply = this.executor.execute(this.scripts.release,
				List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.queueKey(queue, KeyType.PENDING),
						this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.WAKE)),
				List.of(id.toString(), argument(token)));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, null);
	}

	/**
	 * Move up to {@code limit} expired leases back to pending (or to dead when they had
	 * used their last attempt).
	 * @param queue the queue
	 * @param limit the most ids to look at
	 * @return what moved
	 */
	public ReapResult reap(String queue, int limit) {
		String active = this.keyspace.queueKey(queue, KeyType.ACTIVE);
		String[] due = dueCandidates(active, limit);
		if (due.length == 0) {
			return ReapResult.NONE;
		}
		List<String> keys = new ArrayList<>(5 + due.length);
		keys.add(active);
		keys.add(this.keyspace.queueKey(queue, KeyType.PENDING));
		keys.add(this.keyspace.queueKey(queue, KeyType.DEAD));
		keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String id : due) {
			keys.add(rows + id);
		}
		List<Object> reply = this.executor.execute(this.scripts.reap, keys, List.of(due));
		learnClock(reply);
		return new ReapResult((int) Replies.number(reply.get(1)), (int) Replies.number(reply.get(2)));
	}

	/**
	 * Move up to {@code limit} due scheduled jobs to pending.
	 * @param queue the queue
	 * @param limit the most ids to look at
	 * @return how many moved
	 */
	public int promote(String queue, int limit) {
		String schedule = this.keyspace.queueKey(queue, KeyType.SCHEDULE);
		String[] due = dueCandidates(schedule, limit);
		if (due.length == 0) {
			return 0;
		}
		List<String> keys = new ArrayList<>(4 + due.length);
		keys.add(schedule);
		keys.add(this.keyspace.queueKey(queue, KeyType.PENDING));
		keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String id : due) {
			keys.add(rows + id);
		}
		List<Object> reply = this.executor.execute(this.scripts.promote, keys, List.of(due));
		learnClock(reply);
		return (int) Replies.number(reply.get(1));
	}

	/**
	 * Replay a dead job: dead to pending, with a fresh budget of {@code budget} attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @param budget the attempts the job gets from now on
	 * @return applied, or stale when the job is not dead
	 */
	public TransitionResult replay(String queue, JobId id, int budget) {
		Assert.isTrue(budget > 0, () -> "budget must be positive, was " + budget);
		List<Object> reply = this.executor.execute(this.scripts.replay,
				List.of(this.keyspace.queueKey(queue, KeyType.DEAD), this.keyspace.queueKey(queue, KeyType.PENDING),
						this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.METRICS),
						this.keyspace.queueKey(queue, KeyType.WAKE)),
				List.of(id.toString(), Integer.toString(budget)));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, null);
	}

	/**
	 * Delete every dead job of a queue, with its row.
	 * @param queue the queue
	 * @return how many were deleted
	 */
	public long purgeDead(String queue) {
		String dead = this.keyspace.queueKey(queue, KeyType.DEAD);
		String metrics = this.keyspace.queueKey(queue, KeyType.METRICS);
		long total = 0;
		while (true) {
			Set<String> head = this.template.opsForZSet().range(dead, 0, ENQUEUE_CHUNK - 1);
			String[] ids = (head != null) ? validIds(head) : NO_IDS;
			if (ids.length == 0) {
				return total;
			}
			List<String> keys = new ArrayList<>(2 + ids.length);
			keys.add(dead);
			keys.add(metrics);
			String rows = this.keyspace.jobKeyPrefix(queue);
			for (String id : ids) {
				keys.add(rows + id);
			}
			long purged = Replies.number(this.executor.execute(this.scripts.purge, keys, List.of(ids)).get(0));
			total += purged;
			if (purged == 0) {
				return total;
			}
		}
	}

	/**
	 * Return the server time as last learned from a script reply, estimated from the
	 * local clock.
	 * @return the estimated server time in epoch ms
	 */
	public long estimatedServerTime() {
		return System.currentTimeMillis() + this.clockOffset;
	}

	private String[] dueCandidates(String key, int limit) {
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		Set<TypedTuple<String>> lowest = this.template.opsForZSet().rangeWithScores(key, 0, limit - 1);
		if (lowest == null || lowest.isEmpty()) {
			return NO_IDS;
		}
		long horizon = estimatedServerTime() + DUE_TOLERANCE_MS;
		List<String> due = new ArrayList<>(lowest.size());
		for (TypedTuple<String> tuple : lowest) {
			Double score = tuple.getScore();
			if (!this.clockKnown || (score != null && score <= horizon)) {
				due.add(tuple.getValue());
			}
		}
		return validIds(due);
	}

	private String[] peek(String pending, int count) {
		// foreign members (not JOB ids) cannot be claimed; look past a few so they cannot block the head
		Set<String> head = this.template.opsForZSet().range(pending, 0, count + PEEK_SLACK - 1L);
		if (head == null) {
			return NO_IDS;
		}
		String[] valid = validIds(head);
		return (valid.length > count) ? java.util.Arrays.copyOf(valid, count) : valid;
	}

	private static String[] toIds(List<Object> raw) {
		List<String> ids = new ArrayList<>(raw.size());
		for (Object value : raw) {
			ids.add(Replies.string(value));
		}
		return validIds(ids);
	}

	/**
	 * Keep the well-formed JOB ids. Row keys of the ids this returns are built by
	 * appending them to {@link Keyspace#jobKeyPrefix(String)}, without parsing them again.
	 */
	private static String[] validIds(java.util.Collection<String> ids) {
		List<String> valid = new ArrayList<>(ids.size());
		for (String id : ids) {
			if (id != null && JobId.isValid(id)) {
				valid.add(id);
			}
		}
		return valid.toArray(NO_IDS);
	}

	private void learnClock(List<Object> reply) {
		if (!reply.isEmpty() && reply.get(0) instanceof Long serverNow) {
			this.clockOffset = serverNow - System.currentTimeMillis();
			this.clockKnown = true;
		}
	}

	private static ClaimedJob toClaimedJob(String queue, String id, Map<String, String> row, Instant now,
			Instant deadline) {
		Map<String, String> fields = new HashMap<>(row);
		String payload = fields.remove("payload");
		FencingToken token = FencingToken.of(Long.parseLong(fields.remove("attempts")));
		long maxAttempts = Long.parseLong(fields.remove("max_attempts"));
		Instant enqueuedAt = Instant.ofEpochMilli(Long.parseLong(fields.remove("enqueued_at")));
		String readyAt = fields.remove("ready_at");
		String released = fields.remove("released");
		fields.remove("state");
		long attempt = token.value() - ((released != null) ? Long.parseLong(released) : 0);
		return new ClaimedJob(queue, JobId.parse(id), token, attempt, maxAttempts, (payload != null) ? payload : "", enqueuedAt,
				(readyAt != null) ? Instant.ofEpochMilli(Long.parseLong(readyAt)) : enqueuedAt, now, deadline,
				Map.copyOf(fields));
	}

	private static String argument(FencingToken token) {
		Assert.notNull(token, "'token' must not be null");
		return token.argument();
	}

	private static void requirePositive(@Nullable Duration duration, String name) {
		Assert.isTrue(duration != null && duration.toMillis() > 0,
				() -> name + " must be at least 1ms, was " + duration);
	}

	private static final class Scripts {

		final Script enqueue = Script.load("enqueue");

		final Script claim = Script.load("claim");

		final Script complete = Script.load("complete");

		final Script retry = Script.load("retry");

		final Script extend = Script.load("extend");

		final Script release = Script.load("release");

		final Script reap = Script.load("reap");

		final Script promote = Script.load("promote");

		final Script replay = Script.load("replay");

		final Script purge = Script.load("purge");

		List<Script> all() {
			return List.of(this.enqueue, this.claim, this.complete, this.retry, this.extend, this.release, this.reap,
					this.promote, this.replay, this.purge);
		}

	}

}
