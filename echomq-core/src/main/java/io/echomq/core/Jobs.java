package io.echomq.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * The job lifecycle verbs. Each transition is one atomic Lua script that names every key
 * it touches in {@code KEYS[]} and reads the time from the server.
 * <p>
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
 * {@link #quarantine(String, JobState, Collection) quarantine}, which the maintenance
 * scheduler runs for the suspects ({@link #quarantineSuspects(String)}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class Jobs {

	/** Most jobs written by one enqueue script call. */
	public static final int ENQUEUE_CHUNK = 200;

	/** The most jobs one {@code complete_all} call completes. */
	public static final int COMPLETE_BATCH = 64;

	private static final int MAX_CLAIM_ROUNDS = 3;

	private static final int MAX_PAGE = 1_000;

	private static final JobState[] SOURCES = { JobState.PENDING, JobState.ACTIVE, JobState.SCHEDULE, JobState.DEAD };

	private static final JobState[] HISTORY = { JobState.COMPLETED, JobState.DEAD };

	/** Most trim candidates one script call takes (RETAIN_BATCH of retain.lua). */
	private static final int RETAIN_BATCH = 16;

	private static final long DUE_TOLERANCE_MS = 2_000;

	private static final int PEEK_SLACK = 16;

	private static final int MAX_UNIQUE_ROUNDS = 8;

	private static final String UNIQUE_KEY_REPLY = "UNIQUE_KEY";

	private static final String[] NO_IDS = {};

	private final ScriptExecutor executor;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final Scripts scripts = new Scripts();

	private final Map<String, Page> hints = new ConcurrentHashMap<>();

	private final Map<String, Long> pauses = new ConcurrentHashMap<>();

	private final Suspects suspects = new Suspects();

	private final Map<String, Retention> completedRetention = new ConcurrentHashMap<>();

	private final Map<String, Retention> deadRetention = new ConcurrentHashMap<>();

	private final Map<String, String[]> trimHints = new ConcurrentHashMap<>();

	private final Map<String, String[]> deadTrimHints = new ConcurrentHashMap<>();

	private final LaneClaimer lanes;

	private final Set<String> laneQueues = ConcurrentHashMap.newKeySet();

	private final Map<String, AtomicInteger> turns = new ConcurrentHashMap<>();

	private final QueueSignals signals = new QueueSignals();

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
		this.lanes = new LaneClaimer(executor, keyspace);
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
	 * Return the in-process signals from this node's listeners to its maintenance ticks.
	 * @return the signals
	 */
	public QueueSignals signals() {
		return this.signals;
	}

	/**
	 * Return the scripts these verbs run.
	 * @return every script
	 */
	public List<Script> scripts() {
		List<Script> all = new ArrayList<>(this.scripts.all());
		all.addAll(this.lanes.scripts());
		return all;
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
		if (spec.unique() != null) {
			throw new IllegalArgumentException("A unique key (" + spec.unique().name()
					+ ") names one job: enqueue it with enqueueUnique, not enqueueAll of " + payloads.size());
		}
		List<ScriptExecutor.Invocation> calls = new ArrayList<>();
		for (int start = 0; start < payloads.size(); start += ENQUEUE_CHUNK) {
			List<String> chunk = payloads.subList(start, Math.min(payloads.size(), start + ENQUEUE_CHUNK));
			List<String> keys = enqueueKeys(queue, chunk.size());
			List<String> args = enqueueArgs(spec, chunk.size());
			for (int i = 0; i < chunk.size(); i++) {
				String payload = chunk.get(i);
				JobId id = ids.get(start + i);
				Assert.notNull(payload, "payloads must not contain null");
				Assert.notNull(id, "ids must not contain null");
				keys.add(this.keyspace.jobKey(queue, id));
				args.add(id.toString());
				args.add(payload);
			}
			if (spec.lane() != null) {
				keys.add(this.keyspace.laneKey(queue, spec.lane(), LaneKeyType.PENDING));
				keys.add(this.keyspace.queueKey(queue, KeyType.LANES));
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
		String uniqueKey = this.keyspace.uniqueKey(queue, unique.name());
		String holder = null;
		for (int round = 0; round < MAX_UNIQUE_ROUNDS; round++) {
			List<String> keys = enqueueKeys(queue, 1);
			keys.add(this.keyspace.jobKey(queue, id));
			if (spec.lane() != null) {
				keys.add(this.keyspace.laneKey(queue, spec.lane(), LaneKeyType.PENDING));
				keys.add(this.keyspace.queueKey(queue, KeyType.LANES));
			}
			keys.add(uniqueKey);
			if (holder != null) {
				keys.add(this.keyspace.jobKeyPrefix(queue) + holder);
			}
			List<String> args = enqueueArgs(spec, 1);
			args.add(id.toString());
			args.add(payload);
			List<Object> reply = this.executor.execute(this.scripts.enqueue, keys, args);
			learnClock(reply);
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
		List<String> keys = new ArrayList<>(6 + jobs);
		keys.add(this.keyspace.queueKey(queue, KeyType.PENDING));
		keys.add(this.keyspace.queueKey(queue, KeyType.SCHEDULE));
		keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
		return keys;
	}

	private static List<String> enqueueArgs(EnqueueSpec spec, int jobs) {
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
	 * Claim up to {@code max} jobs: pending to active, each with a fresh fencing token
	 * and a lease of {@code lease} from server time.
	 * <p>
	 * Members of pending that cannot be claimed (not JOB ids, malformed rows) are left
	 * where they are and passed over, however many there are: the claim pages on past
	 * them, in pages that grow to {@value #MAX_PAGE} members, until it has {@code max}
	 * jobs or reaches the end of pending.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @return the claimed jobs, possibly none
	 */
	public List<ClaimedJob> claim(String queue, Duration lease, int max) {
		return claim(queue, lease, max, FlowLimits.none()).jobs();
	}

	/**
	 * Claim up to {@code max} jobs as {@link #claim(String, Duration, int)} does, within
	 * the queue's cluster-wide flow limits: the claim script takes no more than the cap
	 * on active jobs and the rate window allow, on server time, and says which limit held
	 * it back and when the rate window has room again.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @return the claimed jobs and the limit that held the claim back, if any
	 */
	public ClaimResult claim(String queue, Duration lease, int max, FlowLimits limits) {
		return claim(queue, lease, max, limits, null);
	}

	/**
	 * Claim up to {@code max} jobs as {@link #claim(String, Duration, int, FlowLimits)}
	 * does, writing the claiming node's name to each claimed row's
	 * {@value EchoMqNode#CLAIMED_BY_FIELD} field in the {@code HSET} that makes it
	 * active. The field names the last claimant: it stays when the job leaves active and
	 * the next claim overwrites it.
	 * @param queue the queue
	 * @param lease how long the lease lasts unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the claiming node, or {@code null} to record none (the field is
	 * deleted)
	 * @return the claimed jobs and the limit that held the claim back, if any
	 */
	public ClaimResult claim(String queue, Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		QueuePartitions.validateEngineName(queue);
		requirePositive(lease, "lease");
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		Assert.notNull(limits, "'limits' must not be null");
		if (this.laneQueues.contains(queue) && lanesTurn(queue)) {
			ClaimResult fromLanes = claimLanes(queue, lease, max, limits, owner);
			if (fromLanes.jobs().size() >= max || LaneClaimer.isQueueLimit(fromLanes.limit())) {
				return fromLanes;
			}
			return merge(fromLanes, claimPending(queue, lease, max - fromLanes.jobs().size(), limits, owner));
		}
		ClaimResult fromPending = claimPending(queue, lease, max, limits, owner);
		if (fromPending.jobs().size() >= max || LaneClaimer.isQueueLimit(fromPending.limit())
				|| !this.laneQueues.contains(queue) || this.pauses.containsKey(queue)) {
			return fromPending;
		}
		return merge(fromPending, claimLanes(queue, lease, max - fromPending.jobs().size(), limits, owner));
	}

	/**
	 * Jobs without a lane share the queue with the lanes as one more lane would: the
	 * claims of a queue with lanes alternate between serving its own pending set first
	 * and serving the lanes first.
	 */
	private boolean lanesTurn(String queue) {
		return (this.turns.computeIfAbsent(queue, (name) -> new AtomicInteger()).getAndIncrement() & 1) == 0;
	}

	private ClaimResult claimLanes(String queue, Duration lease, int max, FlowLimits limits,
			@Nullable EchoMqNode owner) {
		LaneClaimer.Outcome outcome = this.lanes.claim(queue, lease, max, limits, owner);
		if (outcome.ringEmpty()) {
			this.laneQueues.remove(queue);
		}
		return outcome.result();
	}

	private static ClaimResult merge(ClaimResult first, ClaimResult second) {
		List<ClaimedJob> all = new ArrayList<>(first.jobs());
		all.addAll(second.jobs());
		ClaimResult last = (second.limit() != null) ? second : first;
		return new ClaimResult(all, last.limit(), last.retryAfter());
	}

	/**
	 * Claim from the queue's own pending set (jobs without a lane), learning from the
	 * reply whether lanes have work.
	 */
	private ClaimResult claimPending(String queue, Duration lease, int max, FlowLimits limits,
			@Nullable EchoMqNode owner) {
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		String pending = this.keyspace.queueKey(queue, KeyType.PENDING);
		ClaimResult.Limit limit = null;
		Duration retryAfter = null;
		List<ClaimedJob> claimed = new ArrayList<>();
		int size = max + PEEK_SLACK;
		Page page = this.hints.remove(queue);
		if (page == null) {
			page = page(queue, JobState.PENDING, pending, 0, size);
		}
		int contended = 0;
		boolean asked = false;
		while (claimed.size() < max) {
			if (page.ids().length == 0) {
				if (page.members() == 0) {
					break;
				}
				size = grow(size);
				page = page(queue, JobState.PENDING, pending, page.offset() + page.members(), size);
				continue;
			}
			ScriptExecutor.Invocation call = claimCall(queue, lease, max - claimed.size(), max, size, page, limits,
					owner);
			ClaimRound round = claimRound(queue, page,
					this.executor.execute(this.scripts.claim, call.keys(), call.args()));
			asked = true;
			if (round.paused()) {
				break;
			}
			claimed.addAll(round.jobs());
			if (round.limit() != null) {
				limit = round.limit();
				retryAfter = round.retryAfter();
				break;
			}
			if (claimed.size() >= max) {
				keepHint(queue, round);
				break;
			}
			if (round.jobs().isEmpty()) {
				if (round.skipped() == 0 && page.foreign() == 0 && ++contended >= MAX_CLAIM_ROUNDS) {
					break;
				}
				size = grow(size);
			}
			page = round.next();
		}
		if (!asked) {
			// pending was empty: whether lanes have work is one ZCARD away
			Long lanes = this.template.opsForZSet().zCard(this.keyspace.queueKey(queue, KeyType.LANES));
			noteLanes(queue, (lanes != null) ? lanes : 0);
		}
		return new ClaimResult(claimed, limit, retryAfter);
	}

	/**
	 * The keys and arguments of one {@code claim} call: take up to {@code want} of the
	 * page's candidates; the reply's hint is the head of pending ({@code full} ids) when
	 * it took them all, else the next {@code size} ids past the page.
	 */
	private ScriptExecutor.Invocation claimCall(String queue, Duration lease, int want, int full, int size, Page page,
			FlowLimits limits, @Nullable EchoMqNode owner) {
		List<String> keys = ClaimCall.keys(this.keyspace, queue, 1 + page.ids().length);
		keys.add(this.keyspace.queueKey(queue, KeyType.PENDING));
		List<String> args = ClaimCall.args(lease, want, limits, owner, 4 + page.ids().length);
		args.add(Integer.toString(full));
		args.add(Integer.toString(size));
		args.add(Long.toString(page.offset()));
		args.add(Integer.toString(page.foreign()));
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String candidate : page.ids()) {
			keys.add(rows + candidate);
			args.add(candidate);
		}
		keys.add(ClaimCall.pausedKey(this.keyspace, queue));
		return new ScriptExecutor.Invocation(keys, args);
	}

	/**
	 * Read a {@code claim} reply, noting what it says of the queue: its clock, whether it
	 * is paused cluster-wide, whether lanes have work, the rows it skipped.
	 */
	private ClaimRound claimRound(String queue, Page page, List<Object> raw) {
		learnClock(raw);
		ClaimCall.Reply reply = ClaimCall.read(queue, raw);
		if (reply.paused()) {
			this.pauses.put(queue, reply.pauseLeft());
			return new ClaimRound(List.of(), 0, page, -1, null, null, true);
		}
		this.pauses.remove(queue);
		noteLanes(queue, reply.lanes());
		Map<String, String> skipped = reply.skipped();
		this.suspects.addAll(queue, JobState.PENDING, skipped.keySet());
		Page next = toPage(queue, reply.hint(), reply.hintFrom());
		if (reply.limit().isEmpty()) {
			return new ClaimRound(reply.jobs(), skipped.size(), next, reply.hintFrom(), null, null, false);
		}
		Duration retryAfter = retryAfter(reply.reopen(), reply.now(),
				page.ids().length > reply.jobs().size() + skipped.size());
		return new ClaimRound(reply.jobs(), skipped.size(), next, reply.hintFrom(),
				ClaimResult.Limit.valueOf(reply.limit()), retryAfter, false);
	}

	/**
	 * Keep the head of pending a claim that took its maximum returned, as the next
	 * claim's candidates: that claim then needs no {@code ZRANGE} of its own.
	 */
	private void keepHint(String queue, ClaimRound round) {
		if (round.hintFrom() == 0 && round.next().members() > 0) {
			this.hints.put(queue, round.next());
		}
	}

	private void noteLanes(String queue, long lanes) {
		if (lanes > 0) {
			this.laneQueues.add(queue);
		}
		else {
			this.laneQueues.remove(queue);
		}
	}

	/**
	 * Return how long the queue stays paused cluster-wide, as the last claim from this
	 * engine found it: for a poller to wait no longer than a timed pause lasts.
	 * @param queue the queue
	 * @return the time left, {@link Duration#ZERO} when the last claim found the queue
	 * not paused, or {@code null} when it was paused until resumed
	 */
	public @Nullable Duration lastClaimPause(String queue) {
		Long left = this.pauses.get(queue);
		if (left == null) {
			return Duration.ZERO;
		}
		return (left < 0) ? null : Duration.ofMillis(left);
	}

	/**
	 * Pause a queue cluster-wide: claims on every node return nothing until it is
	 * {@linkplain #resume(String) resumed}, or, for a timed pause, until {@code duration}
	 * passed (server time). A timed pause never shortens a pause in place: an indefinite
	 * one stays, a longer one stays.
	 * @param queue the queue
	 * @param duration how long the pause lasts, or {@code null} until resumed
	 * @param reason why, kept as the flag's value
	 * @return whether the flag changed
	 */
	public boolean pause(String queue, @Nullable Duration duration, String reason) {
		Assert.notNull(reason, "'reason' must not be null");
		if (duration != null) {
			requirePositive(duration, "pause duration");
		}
		List<Object> reply = this.executor.execute(this.scripts.pause, pauseKeys(queue),
				List.of((duration != null) ? "pause_for" : "pause",
						(duration != null) ? Long.toString(duration.toMillis()) : "0", reason));
		return Replies.number(reply.get(0)) == 1;
	}

	/**
	 * Resume a queue paused cluster-wide, and wake idle pollers so they claim at once.
	 * @param queue the queue
	 * @return whether it was paused
	 */
	public boolean resume(String queue) {
		List<Object> reply = this.executor.execute(this.scripts.pause, pauseKeys(queue), List.of("resume", "0", ""));
		return Replies.number(reply.get(0)) == 1;
	}

	/**
	 * Return how long a queue stays paused cluster-wide, read now.
	 * @param queue the queue
	 * @return the time left, {@link Duration#ZERO} when not paused, or {@code null} when
	 * paused until resumed
	 */
	public @Nullable Duration pauseLeft(String queue) {
		byte[] key = this.keyspace.queueKey(queue, KeyType.PAUSED).getBytes(java.nio.charset.StandardCharsets.UTF_8);
		Long left = this.template.execute((RedisCallback<Long>) (connection) -> connection.keyCommands().pTtl(key));
		if (left == null || left == -2) {
			return Duration.ZERO;
		}
		return (left < 0) ? null : Duration.ofMillis(left);
	}

	private List<String> pauseKeys(String queue) {
		return List.of(this.keyspace.queueKey(queue, KeyType.PAUSED), this.keyspace.queueKey(queue, KeyType.WAKE));
	}

	/**
	 * Set how much history a queue keeps: its completed jobs (none by default, so a
	 * completed job's row is retired at once) and its dead jobs
	 * ({@link Retention#DEAD_DEFAULT} by default). Every node completing jobs of a queue
	 * should be given the same bounds.
	 * @param queue the queue
	 * @param completed bounds of the completed location, {@link Retention#NONE} to keep
	 * none
	 * @param dead bounds of the dead location, {@link Retention#NONE} to keep every dead
	 * job
	 */
	public void retain(String queue, Retention completed, Retention dead) {
		QueuePartitions.validateEngineName(queue);
		Assert.notNull(completed, "'completed' must not be null");
		Assert.notNull(dead, "'dead' must not be null");
		this.completedRetention.put(queue, completed);
		this.deadRetention.put(queue, dead);
	}

	/**
	 * Return the bounds of a queue's history in a location.
	 * @param queue the queue
	 * @param location {@link JobState#COMPLETED} or {@link JobState#DEAD}
	 * @return the bounds
	 */
	public Retention retention(String queue, JobState location) {
		QueuePartitions.validateEngineName(queue);
		Assert.isTrue(location == JobState.COMPLETED || location == JobState.DEAD,
				() -> "only completed and dead keep history, not " + location.value());
		return (location == JobState.COMPLETED) ? this.completedRetention.getOrDefault(queue, Retention.NONE)
				: this.deadRetention.getOrDefault(queue, Retention.DEAD_DEFAULT);
	}

	/**
	 * Complete a job: active to done. Without retention the row is retired; with it the
	 * job moves to {@link KeyType#COMPLETED completed} with its row, and the script trims
	 * completed to its bounds (a bounded number of ids per call, those the previous call
	 * of this node named as over the bounds).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token) {
		return complete(queue, id, token, null);
	}

	/**
	 * Complete a job whose unique key the caller knows ({@link ClaimedJob#uniqueKey()}),
	 * declaring it up front: one round trip where
	 * {@link #complete(String, JobId, FencingToken)} needs two for a job with a unique
	 * key.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token its claim returned
	 * @param uniqueKey the name of the job's unique key, or {@code null}
	 * @return applied, or stale if the caller's lease was lost
	 */
	public TransitionResult complete(String queue, JobId id, FencingToken token, @Nullable String uniqueKey) {
		QueuePartitions.validateEngineName(queue);
		Retention retention = this.completedRetention.getOrDefault(queue, Retention.NONE);
		if (!retention.isEnabled()) {
			List<String> keys = new ArrayList<>(7);
			keys.add(this.keyspace.queueKey(queue, KeyType.ACTIVE));
			keys.add(this.keyspace.jobKey(queue, id));
			keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
			keys.add(this.keyspace.queueKey(queue, KeyType.MINUTES));
			keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
			keys.add(this.keyspace.queueKey(queue, KeyType.THROTTLED));
			if (uniqueKey != null) {
				keys.add(this.keyspace.uniqueKeyPrefix(queue) + uniqueKey);
			}
			List<Object> reply = withUniqueKey(queue, this.scripts.complete, keys,
					List.of(id.toString(), argument(token)));
			return Replies.fenced(reply);
		}
		String[] candidates = this.trimHints.remove(queue);
		if (candidates == null) {
			candidates = NO_IDS;
		}
		List<String> keys = new ArrayList<>(8 + candidates.length);
		keys.add(this.keyspace.queueKey(queue, KeyType.ACTIVE));
		keys.add(this.keyspace.jobKey(queue, id));
		keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		keys.add(this.keyspace.queueKey(queue, KeyType.MINUTES));
		keys.add(this.keyspace.queueKey(queue, KeyType.WAKE));
		keys.add(this.keyspace.queueKey(queue, KeyType.THROTTLED));
		keys.add(this.keyspace.queueKey(queue, KeyType.COMPLETED));
		List<String> args = new ArrayList<>(4 + candidates.length);
		args.add(id.toString());
		args.add(argument(token));
		args.add(Long.toString(retention.count()));
		args.add(Long.toString(retention.age().toMillis()));
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String candidate : candidates) {
			keys.add(rows + candidate);
			args.add(candidate);
		}
		if (uniqueKey != null) {
			keys.add(this.keyspace.uniqueKeyPrefix(queue) + uniqueKey);
		}
		List<Object> reply = withUniqueKey(queue, this.scripts.complete, keys, args);
		TransitionResult result = Replies.fenced(reply);
		if (!result.isStale() && reply.size() > 1) {
			String[] next = jobIds(Replies.list(reply.get(1)));
			if (next.length > 0) {
				this.trimHints.put(queue, next);
			}
		}
		return result;
	}

	/**
	 * Trim a queue's history (completed and dead) back within its bounds, at most
	 * {@code limit} jobs per location, each with its row. The maintenance scheduler runs
	 * this, so that an age bound holds on an idle queue and dead keeps its bounds
	 * whatever path dead-lettered a job.
	 * @param queue the queue
	 * @param limit the most jobs to trim per location
	 * @return how many jobs were trimmed
	 */
	public long trimHistory(String queue, int limit) {
		QueuePartitions.validateEngineName(queue);
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		long trimmed = 0;
		for (JobState location : HISTORY) {
			Retention retention = retention(queue, location);
			if (!retention.isEnabled()) {
				continue;
			}
			String key = this.keyspace.queueKey(queue, location.location());
			List<String> fixed = List.of(key);
			String[] candidates = NO_IDS;
			long done = 0;
			while (done < limit) {
				List<String> args = new ArrayList<>(3 + candidates.length);
				args.add(location.value());
				args.add(Long.toString(retention.count()));
				args.add(Long.toString(retention.age().toMillis()));
				args.addAll(List.of(candidates));
				List<Object> reply = this.executor.execute(this.scripts.trim, withRows(queue, fixed, candidates), args);
				learnClock(reply);
				long n = Replies.number(reply.get(1));
				done += n;
				String[] next = jobIds(Replies.list(reply.get(2)));
				if (next.length == 0 || (candidates.length > 0 && n == 0)) {
					break;
				}
				candidates = next;
			}
			trimmed += done;
		}
		return trimmed;
	}

	private static String[] jobIds(List<Object> raw) {
		List<String> ids = new ArrayList<>(raw.size());
		for (Object value : raw) {
			String id = Replies.string(value);
			if (JobId.isValid(id)) {
				ids.add(id);
			}
		}
		return ids.toArray(NO_IDS);
	}

	/**
	 * Complete several jobs of a queue that hold no unique key; see
	 * {@link #completeAll(String, List, List, List)}.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @return per id, in order: applied or stale, or {@code null} when not known to be
	 * recorded
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens) {
		List<@Nullable String> none = new ArrayList<>(ids.size());
		for (int i = 0; i < ids.size(); i++) {
			none.add(null);
		}
		return completeAll(queue, ids, tokens, none);
	}

	/**
	 * Complete several jobs of a queue: those without a unique key in one
	 * {@code complete_all} script call per {@value #COMPLETE_BATCH} jobs (each job fenced
	 * on its own, the counters written once per call), the others one {@link #complete
	 * complete} call each; the calls pipelined on a standalone server. A queue that keeps
	 * its completed jobs completes them one by one.
	 * @param queue the queue
	 * @param ids the job ids
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id ({@link ClaimedJob#uniqueKey()}),
	 * or {@code null} for none, in the same order
	 * @return per id, in order: applied or stale like {@link #complete}, or {@code null}
	 * when it is not known to be recorded (no reply, an error reply, or not sent because
	 * an earlier call of the batch failed); a caller sends those again one by one
	 */
	public List<@Nullable TransitionResult> completeAll(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys) {
		Assert.notNull(ids, "'ids' must not be null");
		Assert.notNull(tokens, "'tokens' must not be null");
		Assert.isTrue(ids.size() == tokens.size() && ids.size() == uniqueKeys.size(),
				() -> "one token and unique key per id: " + tokens.size() + " tokens and " + uniqueKeys.size()
						+ " unique keys for " + ids.size() + " ids");
		if (this.completedRetention.getOrDefault(queue, Retention.NONE).isEnabled()) {
			// each completion carries the trim candidates the previous one named
			List<@Nullable TransitionResult> results = new ArrayList<>(ids.size());
			for (int i = 0; i < ids.size(); i++) {
				results.add(complete(queue, ids.get(i), tokens.get(i), uniqueKeys.get(i)));
			}
			return results;
		}
		List<@Nullable TransitionResult> results = new ArrayList<>(Collections.nCopies(ids.size(), null));
		List<Completion> completions = completions(queue, ids, tokens, uniqueKeys);
		// the complete_all calls pipelined, then the complete calls pipelined
		for (boolean batched : new boolean[] { true, false }) {
			List<Completion> group = completions.stream()
				.filter((completion) -> (completion.call().script() == this.scripts.completeAll) == batched)
				.toList();
			List<ScriptExecutor.Outcome> outcomes = this.executor
				.executeCalls(group.stream().map(Completion::call).toList());
			for (int c = 0; c < outcomes.size(); c++) {
				read(group.get(c), outcomes.get(c), results);
			}
		}
		return results;
	}

	/**
	 * The script calls that complete jobs: jobs without a unique key in one
	 * {@code complete_all} call per {@value #COMPLETE_BATCH}, then one {@code complete}
	 * call per job that holds one, its key declared.
	 */
	private List<Completion> completions(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys) {
		List<Integer> batched = new ArrayList<>(ids.size());
		List<Integer> single = new ArrayList<>();
		for (int i = 0; i < ids.size(); i++) {
			Assert.notNull(ids.get(i), "ids must not contain null");
			((uniqueKeys.get(i) == null) ? batched : single).add(i);
		}
		List<Completion> completions = new ArrayList<>(single.size() + 1);
		for (int from = 0; from < batched.size(); from += COMPLETE_BATCH) {
			List<Integer> chunk = batched.subList(from, Math.min(from + COMPLETE_BATCH, batched.size()));
			completions.add(new Completion(
					new ScriptExecutor.Call(this.scripts.completeAll, completeAllCall(queue, ids, tokens, chunk)),
					chunk));
		}
		for (int i : single) {
			completions.add(new Completion(new ScriptExecutor.Call(this.scripts.complete,
					completeCall(queue, ids.get(i), tokens.get(i), uniqueKeys.get(i))), List.of(i)));
		}
		return completions;
	}

	/**
	 * Record what a completion call did for each of its jobs: applied or stale, left
	 * {@code null} when it did not apply or asked for a key it was not given.
	 */
	private void read(Completion completion, ScriptExecutor.Outcome outcome, List<@Nullable TransitionResult> results) {
		if (completion.call().script() == this.scripts.completeAll) {
			readCompleteAll(outcome, completion.jobs(), results);
		}
		else {
			readComplete(outcome, completion.jobs().get(0), results);
		}
	}

	/** One {@code complete} call for a job that holds a unique key, the key declared. */
	private ScriptExecutor.Invocation completeCall(String queue, JobId id, FencingToken token,
			@Nullable String uniqueKey) {
		return new ScriptExecutor.Invocation(List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE),
				this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.METRICS),
				this.keyspace.queueKey(queue, KeyType.MINUTES), this.keyspace.queueKey(queue, KeyType.WAKE),
				this.keyspace.queueKey(queue, KeyType.THROTTLED), this.keyspace.uniqueKeyPrefix(queue) + uniqueKey),
				List.of(id.toString(), argument(token)));
	}

	private static void readComplete(ScriptExecutor.Outcome outcome, int index,
			List<@Nullable TransitionResult> results) {
		if (outcome.status() == ScriptExecutor.Status.APPLIED && uniqueKeyNeeded(outcome.reply()) == null) {
			results.set(index, Replies.fenced(outcome.reply()));
		}
	}

	/**
	 * Complete several jobs as {@link #completeAll(String, List, List, List)} does and,
	 * in the same round trip, claim up to {@code max} jobs from the queue's pending set
	 * for the slots the completions free: a busy worker's next jobs come back with the
	 * reply to its last ones. The completions and the claim are two script calls,
	 * pipelined in that order, each its own atomic transition: a claim that fails leaves
	 * the completions' outcomes as they are.
	 * <p>
	 * The claim is made only where it can be one call: the candidates are the head of
	 * pending the last claim returned (shared by concurrent callers: a candidate another
	 * claim took first is passed over, and each claim returns the head as it left it),
	 * the queue has no lanes with work, is not paused and keeps no completed history.
	 * Otherwise this completes only, and the claim's result is empty; the caller claims
	 * as usual. Jobs holding a unique key are completed by a {@code complete} call each,
	 * in the same round trip. The claim respects the queue's flow limits like
	 * {@link #claim(String, Duration, int, FlowLimits, EchoMqNode)}; where the server had
	 * not loaded the completion script yet, the completions run again by body after the
	 * claim, which then counts the jobs they free as still active (it claims fewer, never
	 * more than the limits allow).
	 * @param queue the queue
	 * @param ids the job ids, at most {@value #COMPLETE_BATCH}
	 * @param tokens the fencing token of each id, in the same order
	 * @param uniqueKeys the unique key name of each id, or {@code null} for none
	 * @param lease how long the claimed jobs' leases last unless extended
	 * @param max the most jobs to claim
	 * @param limits the queue's flow limits
	 * @param owner the claiming node, or {@code null} to record none
	 * @return the completions' outcomes as {@code completeAll} returns them, and the
	 * claimed jobs
	 */
	public CompleteAndClaimResult completeAllAndClaim(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<@Nullable String> uniqueKeys, Duration lease, int max, FlowLimits limits, @Nullable EchoMqNode owner) {
		QueuePartitions.validateEngineName(queue);
		requirePositive(lease, "lease");
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		Assert.notNull(limits, "'limits' must not be null");
		ClaimResult none = new ClaimResult(List.of(), null, null);
		if (ids.isEmpty() || ids.size() > COMPLETE_BATCH || ids.size() != tokens.size()
				|| ids.size() != uniqueKeys.size() || this.laneQueues.contains(queue) || this.pauses.containsKey(queue)
				|| this.completedRetention.getOrDefault(queue, Retention.NONE).isEnabled()) {
			return new CompleteAndClaimResult(completeAll(queue, ids, tokens, uniqueKeys), none);
		}
		// the hint stays for other completion threads: a candidate another claim took
		// first is passed over
		Page page = this.hints.get(queue);
		if (page == null || page.ids().length == 0) {
			return new CompleteAndClaimResult(completeAll(queue, ids, tokens, uniqueKeys), none);
		}
		List<Completion> completions = completions(queue, ids, tokens, uniqueKeys);
		List<ScriptExecutor.Call> calls = new ArrayList<>(completions.size() + 1);
		completions.forEach((completion) -> calls.add(completion.call()));
		calls.add(new ScriptExecutor.Call(this.scripts.claim,
				claimCall(queue, lease, max, max + PEEK_SLACK, max + PEEK_SLACK, page, limits, owner)));
		List<ScriptExecutor.Outcome> outcomes = this.executor.executeCalls(calls);
		List<@Nullable TransitionResult> results = new ArrayList<>(Collections.nCopies(ids.size(), null));
		for (int c = 0; c < completions.size(); c++) {
			read(completions.get(c), outcomes.get(c), results);
		}
		ScriptExecutor.Outcome claimed = outcomes.get(completions.size());
		if (claimed.status() != ScriptExecutor.Status.APPLIED) {
			return new CompleteAndClaimResult(results, none);
		}
		ClaimRound round = claimRound(queue, page, claimed.reply());
		if (round.paused() || round.hintFrom() != 0) {
			this.hints.remove(queue, page);
		}
		else if (round.next().members() > 0) {
			// a claim that took fewer than it asked for still returns the head of
			// pending: the fresh candidates
			this.hints.put(queue, round.next());
		}
		else {
			this.hints.remove(queue);
		}
		return new CompleteAndClaimResult(results, new ClaimResult(round.jobs(), round.limit(), round.retryAfter()));
	}

	private ScriptExecutor.Invocation completeAllCall(String queue, List<JobId> ids, List<FencingToken> tokens,
			List<Integer> chunk) {
		String rows = this.keyspace.jobKeyPrefix(queue);
		List<String> keys = new ArrayList<>(5 + chunk.size());
		Collections.addAll(keys, this.keyspace.queueKey(queue, KeyType.ACTIVE),
				this.keyspace.queueKey(queue, KeyType.METRICS), this.keyspace.queueKey(queue, KeyType.MINUTES),
				this.keyspace.queueKey(queue, KeyType.WAKE), this.keyspace.queueKey(queue, KeyType.THROTTLED));
		List<String> args = new ArrayList<>(2 * chunk.size());
		for (int i : chunk) {
			String id = ids.get(i).toString();
			keys.add(rows + id);
			args.add(id);
			args.add(argument(tokens.get(i)));
		}
		return new ScriptExecutor.Invocation(keys, args);
	}

	private static void readCompleteAll(ScriptExecutor.Outcome outcome, List<Integer> chunk,
			List<@Nullable TransitionResult> results) {
		if (outcome.status() != ScriptExecutor.Status.APPLIED) {
			return;
		}
		for (int j = 0; j < chunk.size() && j < outcome.reply().size(); j++) {
			List<Object> entry = Replies.list(outcome.reply().get(j));
			// a row naming a unique key the claim did not report is left for complete,
			// one by one
			if (uniqueKeyNeeded(entry) == null) {
				results.set(chunk.get(j), Replies.fenced(entry));
			}
		}
	}

	/**
	 * Run a fenced transition that may release a unique key: first with none declared;
	 * when the script answers that the row names one (nothing was written), again with
	 * that key declared. Jobs without a unique key pay nothing.
	 */
	private List<Object> withUniqueKey(String queue, Script script, List<String> keys, List<String> args) {
		List<Object> reply = this.executor.execute(script, keys, args);
		List<String> declared = null;
		// at most one unique key and one lane: a third answer asking for keys is a bug
		for (int round = 0; round < 2; round++) {
			String name = uniqueKeyNeeded(reply);
			String lane = laneKeyNeeded(reply);
			if (name == null && lane == null) {
				return reply;
			}
			declared = (declared != null) ? declared : new ArrayList<>(keys);
			if (name != null) {
				declared.add(this.keyspace.uniqueKeyPrefix(queue) + name);
			}
			if (lane != null) {
				declared.add(this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING));
				declared.add(this.keyspace.queueKey(queue, KeyType.LANES));
			}
			reply = this.executor.execute(script, declared, args);
		}
		if (uniqueKeyNeeded(reply) != null || laneKeyNeeded(reply) != null) {
			throw new IllegalStateException(
					script.name() + " asked again for keys it was given: " + declared + "; nothing was written");
		}
		return reply;
	}

	private static @Nullable String laneKeyNeeded(List<Object> reply) {
		if (reply.size() == 3 && reply.get(0) instanceof Long flag && flag == 0
				&& "LANE_KEY".equals(Replies.string(reply.get(1)))) {
			return Replies.string(reply.get(2));
		}
		return null;
	}

	private static @Nullable String uniqueKeyNeeded(List<Object> reply) {
		if (reply.size() == 3 && reply.get(0) instanceof Long flag && flag == 0
				&& UNIQUE_KEY_REPLY.equals(Replies.string(reply.get(1)))) {
			return Replies.string(reply.get(2));
		}
		return null;
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
		return fail(queue, id, token, error, backoff, false, false);
	}

	/**
	 * Put a claimed job off until {@code delay} from now without spending its attempt
	 * (the handler asked to run later): active to schedule (to pending when the delay is
	 * zero), never to dead.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param reason why, kept on the row as its last error
	 * @param delay how long to wait before the next attempt
	 * @return applied with the new state, or stale
	 */
	public TransitionResult snooze(String queue, JobId id, FencingToken token, String reason, Duration delay) {
		Assert.isTrue(delay != null && !delay.isNegative(), () -> "delay must not be negative, was " + delay);
		EnqueueSpec.checkDelay(delay);
		return fail(queue, id, token, reason, delay, false, true);
	}

	/**
	 * Dead-letter a job at once, whatever attempts it has left (an unreadable payload, a
	 * fatal error).
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @param error the reason kept on the row
	 * @return applied, or stale
	 */
	public TransitionResult deadLetter(String queue, JobId id, FencingToken token, String error) {
		return fail(queue, id, token, error, Duration.ZERO, true, false);
	}

	private TransitionResult fail(String queue, JobId id, FencingToken token, String error, Duration backoff,
			boolean dead, boolean snooze) {
		Assert.notNull(error, "'error' must not be null");
		List<String> keys = new ArrayList<>(9 + RETAIN_BATCH);
		keys.addAll(List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE),
				this.keyspace.queueKey(queue, KeyType.SCHEDULE), this.keyspace.queueKey(queue, KeyType.DEAD),
				this.keyspace.queueKey(queue, KeyType.PENDING), this.keyspace.jobKey(queue, id),
				this.keyspace.queueKey(queue, KeyType.METRICS), this.keyspace.queueKey(queue, KeyType.WAKE),
				this.keyspace.queueKey(queue, KeyType.MINUTES), this.keyspace.queueKey(queue, KeyType.THROTTLED)));
		List<String> args = new ArrayList<>(8 + RETAIN_BATCH);
		args.addAll(List.of(id.toString(), argument(token), error, Long.toString(backoff.toMillis()), dead ? "1" : "0",
				snooze ? "1" : "0"));
		Retention retention = retention(queue, JobState.DEAD);
		String[] candidates = NO_IDS;
		if (retention.isEnabled() && !snooze) {
			candidates = this.deadTrimHints.remove(queue);
			candidates = (candidates != null) ? candidates : NO_IDS;
			args.add(Long.toString(retention.count()));
			args.add(Long.toString(retention.age().toMillis()));
			String rows = this.keyspace.jobKeyPrefix(queue);
			for (String candidate : candidates) {
				keys.add(rows + candidate);
				args.add(candidate);
			}
		}
		List<Object> reply = withUniqueKey(queue, this.scripts.retry, keys, args);
		TransitionResult result = Replies.fenced(reply);
		if (result.isStale()) {
			if (candidates.length > 0) {
				this.deadTrimHints.putIfAbsent(queue, candidates);
			}
			return result;
		}
		JobState state = JobState.fromValue(Replies.string(reply.get(1)));
		if (reply.size() > 3) {
			String[] next = jobIds(Replies.list(reply.get(3)));
			if (next.length > 0) {
				this.deadTrimHints.put(queue, next);
			}
		}
		else if (candidates.length > 0) {
			this.deadTrimHints.putIfAbsent(queue, candidates);
		}
		return TransitionResult.applied(state, Replies.instant(reply.get(2)));
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
	 * stop). A job whose cancel was asked for is retired as cancelled instead, and its
	 * unique key, if it names one, released.
	 * @param queue the queue
	 * @param id the job id
	 * @param token the fencing token
	 * @return applied, or stale
	 */
	public TransitionResult release(String queue, JobId id, FencingToken token) {
		List<Object> reply = withUniqueKey(queue, this.scripts.release,
				List.of(this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.queueKey(queue, KeyType.PENDING),
						this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.WAKE),
						this.keyspace.queueKey(queue, KeyType.METRICS),
						this.keyspace.queueKey(queue, KeyType.SCHEDULE)),
				List.of(id.toString(), argument(token)));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result
				: TransitionResult.applied(JobState.fromValue(Replies.string(reply.get(1))), null);
	}

	/**
	 * Move up to {@code limit} expired leases back to pending (or to dead when they had
	 * used their last attempt). Expired ids no transition can move are left where they
	 * are, counted as {@linkplain ReapResult#skipped() skipped}, and passed over.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return what moved
	 */
	public ReapResult reap(String queue, int limit) {
		return reapPass(queue, limit).moved();
	}

	/**
	 * Move up to {@code limit} expired leases back to pending (or to dead), as
	 * {@link #reap(String, int)} does, and tell when the earliest lease left falls due.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return what moved, and the earliest lease deadline seen that has not passed
	 */
	public MaintenancePass<ReapResult> reapPass(String queue, int limit) {
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		String active = this.keyspace.queueKey(queue, KeyType.ACTIVE);
		List<String> fixed = List.of(active, this.keyspace.queueKey(queue, KeyType.PENDING),
				this.keyspace.queueKey(queue, KeyType.DEAD), this.keyspace.queueKey(queue, KeyType.METRICS),
				this.keyspace.queueKey(queue, KeyType.WAKE), this.keyspace.queueKey(queue, KeyType.LANES));
		int requeued = 0;
		int dead = 0;
		int skipped = 0;
		long offset = 0;
		NextDue next = new NextDue();
		while (requeued + dead < limit) {
			Due due = dueCandidates(queue, JobState.ACTIVE, active, offset, limit - requeued - dead);
			next.later(due);
			int passed = due.foreign();
			boolean drained = true;
			if (due.ids().length > 0) {
				List<Object> reply = withLanes(this.scripts.reap, queue, fixed, List.of(), due.ids());
				learnClock(reply);
				int back = (int) Replies.number(reply.get(1));
				int gone = (int) Replies.number(reply.get(2));
				int cancelled = (int) Replies.number(reply.get(5));
				Set<String> lanes = needs(reply.get(6));
				if (!lanes.isEmpty()) {
					List<Object> again = withLanes(this.scripts.reap, queue, fixed, List.copyOf(lanes), due.ids());
					back += (int) Replies.number(again.get(1));
					gone += (int) Replies.number(again.get(2));
					cancelled += (int) Replies.number(again.get(5));
				}
				requeued += back;
				dead += gone;
				Map<String, String> reasons = Replies.reasons(reply.get(3));
				this.suspects.addAll(queue, JobState.ACTIVE, reasons.keySet());
				Map<String, String> needed = Replies.reasons(reply.get(4));
				if (!needed.isEmpty()) {
					int[] moved = reapDeclaring(queue, fixed, needed);
					back += moved[0];
					gone += moved[1];
					cancelled += moved[2];
					requeued += moved[0];
					dead += moved[1];
				}
				passed += reasons.size();
				drained = back + gone + cancelled + reasons.size() == due.ids().length;
				if (!drained) {
					next.left(due, Replies.number(reply.get(0)));
				}
			}
			skipped += passed;
			if (!drained || !due.more() || (passed == 0 && due.ids().length == 0)) {
				break;
			}
			offset += passed;
		}
		return new MaintenancePass<>(new ReapResult(requeued, dead, skipped), next.at());
	}

	/**
	 * Reap again the candidates whose death (or retirement as cancelled) releases a
	 * unique key, with those keys declared.
	 * @return reaped to pending, reaped to dead, retired as cancelled
	 */
	private int[] reapDeclaring(String queue, List<String> fixed, Map<String, String> needed) {
		String[] ids = needed.keySet().toArray(NO_IDS);
		// those die or are retired as cancelled: no lane to declare
		List<String> keys = withRows(queue, fixed, ids);
		String prefix = this.keyspace.uniqueKeyPrefix(queue);
		new LinkedHashSet<>(needed.values()).forEach((name) -> keys.add(prefix + name));
		List<String> args = new ArrayList<>(1 + ids.length);
		args.add("0");
		args.addAll(List.of(ids));
		List<Object> reply = this.executor.execute(this.scripts.reap, keys, args);
		Map<String, String> reasons = Replies.reasons(reply.get(3));
		this.suspects.addAll(queue, JobState.ACTIVE, reasons.keySet());
		if (!Replies.reasons(reply.get(4)).isEmpty()) {
			throw new IllegalStateException("reap asked again for unique keys it was given: " + needed);
		}
		return new int[] { (int) Replies.number(reply.get(1)), (int) Replies.number(reply.get(2)),
				(int) Replies.number(reply.get(5)) };
	}

	/**
	 * Move up to {@code limit} due scheduled jobs to pending. Due ids no transition can
	 * move are left where they are and passed over.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return how many moved
	 */
	public int promote(String queue, int limit) {
		return promotePass(queue, limit).moved();
	}

	/**
	 * Move up to {@code limit} due scheduled jobs to pending, as
	 * {@link #promote(String, int)} does, and tell when the earliest scheduled job left
	 * falls due.
	 * @param queue the queue
	 * @param limit the most ids to move
	 * @return how many moved, and the earliest run-at seen that has not passed
	 */
	public MaintenancePass<Integer> promotePass(String queue, int limit) {
		Assert.isTrue(limit > 0, () -> "limit must be positive, was " + limit);
		String schedule = this.keyspace.queueKey(queue, KeyType.SCHEDULE);
		List<String> fixed = List.of(schedule, this.keyspace.queueKey(queue, KeyType.PENDING),
				this.keyspace.queueKey(queue, KeyType.METRICS), this.keyspace.queueKey(queue, KeyType.WAKE),
				this.keyspace.queueKey(queue, KeyType.LANES));
		int promoted = 0;
		long offset = 0;
		NextDue next = new NextDue();
		while (promoted < limit) {
			Due due = dueCandidates(queue, JobState.SCHEDULE, schedule, offset, limit - promoted);
			next.later(due);
			int passed = due.foreign();
			boolean drained = true;
			if (due.ids().length > 0) {
				List<Object> reply = withLanes(this.scripts.promote, queue, fixed, List.of(), due.ids());
				learnClock(reply);
				int moved = (int) Replies.number(reply.get(1));
				Set<String> lanes = needs(reply.get(3));
				if (!lanes.isEmpty()) {
					moved += (int) Replies
						.number(withLanes(this.scripts.promote, queue, fixed, List.copyOf(lanes), due.ids()).get(1));
				}
				promoted += moved;
				Map<String, String> reasons = Replies.reasons(reply.get(2));
				this.suspects.addAll(queue, JobState.SCHEDULE, reasons.keySet());
				passed += reasons.size();
				drained = moved + reasons.size() == due.ids().length;
				if (!drained) {
					next.left(due, Replies.number(reply.get(0)));
				}
			}
			if (!drained || !due.more() || (passed == 0 && due.ids().length == 0)) {
				break;
			}
			offset += passed;
		}
		return new MaintenancePass<>(promoted, next.at());
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
						this.keyspace.queueKey(queue, KeyType.WAKE), this.keyspace.queueKey(queue, KeyType.SCHEDULE)),
				List.of(id.toString(), Integer.toString(budget)));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, null);
	}

	/**
	 * Delete one job, wherever it waits or rests: pending, schedule, dead or completed,
	 * with its row, in one atomic move. An active job is refused
	 * ({@link StaleReason#ACTIVE}): its worker holds a lease.
	 * @param queue the queue
	 * @param id the job id
	 * @return applied with the state the job was deleted from, or stale:
	 * {@link StaleReason#NOT_FOUND}, {@link StaleReason#ACTIVE},
	 * {@link StaleReason#MALFORMED_ROW}, or {@link StaleReason#WRONG_STATE} when the row
	 * names a location the id is not in
	 */
	public TransitionResult delete(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<Object> reply = withUniqueKey(queue, this.scripts.delete,
				List.of(this.keyspace.queueKey(queue, KeyType.PENDING), this.keyspace.queueKey(queue, KeyType.SCHEDULE),
						this.keyspace.queueKey(queue, KeyType.DEAD), this.keyspace.queueKey(queue, KeyType.COMPLETED),
						this.keyspace.queueKey(queue, KeyType.ACTIVE), this.keyspace.jobKey(queue, id),
						this.keyspace.queueKey(queue, KeyType.METRICS)),
				List.of(id.toString()));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result
				: TransitionResult.applied(JobState.fromValue(Replies.string(reply.get(1))), null);
	}

	/**
	 * Run a scheduled job now: schedule to pending at once, whatever its run-at.
	 * @param queue the queue
	 * @param id the job id
	 * @return applied (state pending, at the server time of the move), or stale:
	 * {@link StaleReason#NOT_SCHEDULED}, {@link StaleReason#MALFORMED_ROW},
	 * {@link StaleReason#WRONG_STATE}
	 */
	public TransitionResult runNow(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<Object> reply = this.executor.execute(this.scripts.runNow,
				List.of(this.keyspace.queueKey(queue, KeyType.SCHEDULE), this.keyspace.queueKey(queue, KeyType.PENDING),
						this.keyspace.jobKey(queue, id), this.keyspace.queueKey(queue, KeyType.METRICS),
						this.keyspace.queueKey(queue, KeyType.WAKE)),
				List.of(id.toString()));
		TransitionResult result = Replies.fenced(reply);
		return result.isStale() ? result : TransitionResult.applied(JobState.PENDING, Replies.instant(reply.get(1)));
	}

	/**
	 * Cancel a job, whatever its state, in one script: a pending, scheduled or dead job
	 * leaves its location and its row is retired; a running job is marked, its worker
	 * stops the handler at the next lease renewal, and whatever the handler comes to is
	 * discarded (the job is retired as cancelled when it leaves {@code active}, by the
	 * outcome, a release or the reaper). A finished or unknown job is reported as
	 * {@link CancelResult.Outcome#NOT_FOUND not found}.
	 * @param queue the queue
	 * @param id the job id
	 * @return what the cancel did
	 */
	public CancelResult cancel(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		List<String> keys = new ArrayList<>(7);
		for (JobState location : SOURCES) {
			keys.add(this.keyspace.queueKey(queue, location.location()));
		}
		keys.add(this.keyspace.queueKey(queue, KeyType.QUARANTINE));
		keys.add(this.keyspace.jobKey(queue, id));
		keys.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		List<Object> reply = withUniqueKey(queue, this.scripts.cancel, keys, List.of(id.toString()));
		String code = Replies.string(reply.get(1));
		return switch (code) {
			case "CANCELLED" -> new CancelResult(CancelResult.Outcome.CANCELLED,
					JobState.fromValue(Replies.string(reply.get(2))), null, null);
			case "REQUESTED" ->
				new CancelResult(CancelResult.Outcome.REQUESTED, JobState.ACTIVE, Replies.instant(reply.get(3)), null);
			case "NOT_FOUND" ->
				new CancelResult(CancelResult.Outcome.NOT_FOUND, null, null, Replies.string(reply.get(2)));
			case "REFUSED" -> new CancelResult(CancelResult.Outcome.REFUSED, null, null, Replies.string(reply.get(2)));
			default -> throw new IllegalStateException("Unexpected cancel reply '" + code + "'");
		};
	}

	/**
	 * Delete every dead job of a queue, with its row. Members of dead no transition can
	 * move (not JOB ids, malformed rows, a state other than {@code dead}) are left where
	 * they are and passed over.
	 * @param queue the queue
	 * @return how many were deleted
	 */
	public long purgeDead(String queue) {
		String dead = this.keyspace.queueKey(queue, KeyType.DEAD);
		List<String> fixed = List.of(dead, this.keyspace.queueKey(queue, KeyType.METRICS));
		long total = 0;
		long offset = 0;
		while (true) {
			Page page = page(queue, JobState.DEAD, dead, offset, ENQUEUE_CHUNK);
			if (page.members() == 0) {
				return total;
			}
			int passed = page.foreign();
			long purged = 0;
			if (page.ids().length > 0) {
				List<Object> reply = this.executor.execute(this.scripts.purge, withRows(queue, fixed, page.ids()),
						List.of(page.ids()));
				purged = Replies.number(reply.get(0));
				Map<String, String> reasons = Replies.reasons(reply.get(1));
				this.suspects.addAll(queue, JobState.DEAD, reasons.keySet());
				passed += reasons.size();
			}
			total += purged;
			if (purged == 0 && passed == 0) {
				return total;
			}
			offset += passed;
		}
	}

	/**
	 * Move members of a location that no transition can move to the
	 * {@link KeyType#QUARANTINE quarantine} location, in one atomic move each: members
	 * that are not JOB ids, ids without a row, rows breaking the row schema, and ids
	 * whose row names a location they are not in. Each is checked again first; a
	 * well-formed job is left where it is. A stray copy (its well-formed row names
	 * another location that holds it too) is removed, the job going on where its row
	 * says.
	 * @param queue the queue
	 * @param location where the members are: pending, active, schedule or dead
	 * @param members the members to check
	 * @return what moved
	 */
	public QuarantineResult quarantine(String queue, JobState location, Collection<String> members) {
		Assert.isTrue(location != JobState.QUARANTINE && location != JobState.COMPLETED,
				() -> "location must be pending, active, schedule or dead, was " + location.value());
		Assert.notNull(members, "'members' must not be null");
		List<String> fixed = new ArrayList<>(6);
		for (JobState source : SOURCES) {
			fixed.add(this.keyspace.queueKey(queue, source.location()));
		}
		fixed.add(this.keyspace.queueKey(queue, KeyType.QUARANTINE));
		fixed.add(this.keyspace.queueKey(queue, KeyType.METRICS));
		List<String> all = new ArrayList<>(new LinkedHashSet<>(members));
		QuarantineResult result = QuarantineResult.NONE;
		for (int start = 0; start < all.size(); start += ENQUEUE_CHUNK) {
			List<String> chunk = all.subList(start, Math.min(all.size(), start + ENQUEUE_CHUNK));
			List<String> foreign = new ArrayList<>();
			List<String> ids = new ArrayList<>();
			for (String member : chunk) {
				Assert.notNull(member, "members must not contain null");
				((JobId.isValid(member)) ? ids : foreign).add(member);
			}
			List<String> args = new ArrayList<>(2 + chunk.size());
			args.add(location.value());
			args.add(Integer.toString(foreign.size()));
			args.addAll(foreign);
			args.addAll(ids);
			List<Object> reply = this.executor.execute(this.scripts.quarantine,
					withRows(queue, fixed, ids.toArray(NO_IDS)), args);
			learnClock(reply);
			result = result.plus(new QuarantineResult((int) Replies.number(reply.get(1)),
					(int) Replies.number(reply.get(2)), Replies.reasons(reply.get(3))));
		}
		return result;
	}

	/**
	 * Quarantine what the verbs of this engine met in a queue and had to leave where it
	 * was (see {@link #quarantine(String, JobState, Collection)}); the maintenance
	 * scheduler calls this on every reap tick.
	 * @param queue the queue
	 * @return what moved
	 */
	public QuarantineResult quarantineSuspects(String queue) {
		if (this.suspects.isEmpty(queue)) {
			return QuarantineResult.NONE;
		}
		QuarantineResult result = QuarantineResult.NONE;
		for (JobState location : SOURCES) {
			List<String> members = this.suspects.drain(queue, location);
			if (!members.isEmpty()) {
				result = result.plus(quarantine(queue, location, members));
			}
		}
		return result;
	}

	/**
	 * Return the server time as last learned from a script reply, estimated from the
	 * local clock.
	 * @return the estimated server time in epoch ms
	 */
	public long estimatedServerTime() {
		return System.currentTimeMillis() + this.clockOffset;
	}

	/**
	 * Read the page of a location at {@code offset} and return the due members: those
	 * scored at most the estimated server time plus a tolerance (the script checks
	 * exactly). Members that are not JOB ids are counted and remembered as suspects.
	 */
	private Due dueCandidates(String queue, JobState location, String key, long offset, int limit) {
		if (!this.clockKnown) {
			learnClock(List.of(serverTime()));
		}
		Set<TypedTuple<String>> page = this.template.opsForZSet().rangeWithScores(key, offset, offset + limit - 1);
		if (page == null || page.isEmpty()) {
			return new Due(NO_IDS, 0, false, new long[0], Long.MAX_VALUE);
		}
		long horizon = estimatedServerTime() + DUE_TOLERANCE_MS;
		List<String> due = new ArrayList<>(page.size());
		long[] scores = new long[page.size()];
		long later = Long.MAX_VALUE;
		int foreign = 0;
		boolean more = page.size() == limit;
		for (TypedTuple<String> tuple : page) {
			Double score = tuple.getScore();
			if (score == null || score > horizon) {
				if (score != null) {
					later = (long) Math.ceil(score);
				}
				more = false;
				break;
			}
			String member = tuple.getValue();
			if (member != null && JobId.isValid(member)) {
				scores[due.size()] = (long) Math.ceil(score);
				due.add(member);
			}
			else {
				foreign++;
				if (member != null) {
					this.suspects.add(queue, location, member);
				}
			}
		}
		return new Due(due.toArray(NO_IDS), foreign, more, Arrays.copyOf(scores, due.size()), later);
	}

	/**
	 * Read the page of a location at {@code offset}; members that are not JOB ids are
	 * left out and remembered as suspects.
	 */
	private Page page(String queue, JobState location, String key, long offset, int size) {
		Set<String> members = this.template.opsForZSet().range(key, offset, offset + size - 1);
		return toPage(queue, location, (members != null) ? new ArrayList<>(members) : List.of(), offset);
	}

	private Page toPage(String queue, List<Object> raw, long offset) {
		List<String> members = new ArrayList<>(raw.size());
		for (Object value : raw) {
			members.add(Replies.string(value));
		}
		return toPage(queue, JobState.PENDING, members, offset);
	}

	private Page toPage(String queue, JobState location, List<String> members, long offset) {
		List<String> ids = new ArrayList<>(members.size());
		for (String member : members) {
			if (member != null && JobId.isValid(member)) {
				ids.add(member);
			}
			else if (member != null) {
				this.suspects.add(queue, location, member);
			}
		}
		return new Page(offset, ids.toArray(NO_IDS), members.size());
	}

	/**
	 * Run a script that may return jobs to their lanes (promote, reap): the fixed keys,
	 * then the declared lanes' pending keys, then the candidates' rows; the arguments are
	 * the number of declared lanes, their keys, then the candidates.
	 */
	private List<Object> withLanes(Script script, String queue, List<String> fixed, List<String> lanes, String[] ids) {
		List<String> keys = new ArrayList<>(fixed.size() + lanes.size() + ids.length);
		keys.addAll(fixed);
		for (String lane : lanes) {
			keys.add(this.keyspace.laneKey(queue, lane, LaneKeyType.PENDING));
		}
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String id : ids) {
			keys.add(rows + id);
		}
		List<String> args = new ArrayList<>(1 + lanes.size() + ids.length);
		args.add(Integer.toString(lanes.size()));
		args.addAll(lanes);
		args.addAll(List.of(ids));
		List<Object> reply = this.executor.execute(script, keys, args);
		learnClock(reply);
		return reply;
	}

	/** The lanes a promote or reap reply asks the caller to declare ({id, lane, ...}). */
	private static Set<String> needs(Object value) {
		List<Object> pairs = Replies.list(value);
		Set<String> lanes = new LinkedHashSet<>();
		for (int i = 1; i < pairs.size(); i += 2) {
			lanes.add(Replies.string(pairs.get(i)));
		}
		return lanes;
	}

	private List<String> withRows(String queue, List<String> fixed, String[] ids) {
		List<String> keys = new ArrayList<>(fixed.size() + ids.length);
		keys.addAll(fixed);
		String rows = this.keyspace.jobKeyPrefix(queue);
		for (String id : ids) {
			keys.add(rows + id);
		}
		return keys;
	}

	private long serverTime() {
		Long time = this.template.execute((RedisCallback<Long>) (connection) -> {
			if (connection instanceof RedisClusterConnection cluster) {
				return cluster.serverCommands().time();
			}
			return connection.serverCommands().time();
		});
		return (time != null) ? time : System.currentTimeMillis();
	}

	private static int grow(int size) {
		return Math.min(MAX_PAGE, size * 2);
	}

	private void learnClock(List<Object> reply) {
		if (!reply.isEmpty() && reply.get(0) instanceof Long serverNow) {
			this.clockOffset = serverNow - System.currentTimeMillis();
			this.clockKnown = true;
		}
	}

	/**
	 * How long a claim the rate limit held back should wait: until the server time the
	 * claim script says the window has room again, once the claim took all the window
	 * allowed. When the script ran out of candidates first it may have taken fewer, so
	 * the window may still have room: no wait then ({@code null}), the caller waits for a
	 * wake-up as on a drained queue.
	 * @param reopen the script's reopen time (server ms), 0 when not known
	 * @param now the script's server time
	 * @param candidatesLeft whether candidates were left when the script stopped taking
	 */
	static @Nullable Duration retryAfter(long reopen, Instant now, boolean candidatesLeft) {
		if (reopen <= 0 || !candidatesLeft) {
			return null;
		}
		return Duration.ofMillis(Math.max(1, reopen - now.toEpochMilli()));
	}

	/**
	 * Read a claimed row straight from its flat {@code HGETALL} reply, in one pass: the
	 * known fields into their components, the rest into {@link ClaimedJob#fields()}.
	 */
	static ClaimedJob toClaimedJob(String queue, String id, List<Object> row, Instant now, Instant deadline) {
		String payload = null;
		String attempts = null;
		String maxAttemptsText = null;
		String enqueuedAtText = null;
		String readyAt = null;
		String released = null;
		Map<String, String> fields = null;
		RowPayload.Parts parts = null;
		for (int i = 0; i + 1 < row.size(); i += 2) {
			String name = Replies.string(row.get(i));
			switch (name) {
				case "payload" -> payload = Replies.string(row.get(i + 1));
				case "attempts" -> attempts = Replies.string(row.get(i + 1));
				case "max_attempts" -> maxAttemptsText = Replies.string(row.get(i + 1));
				case "enqueued_at" -> enqueuedAtText = Replies.string(row.get(i + 1));
				case "ready_at" -> readyAt = Replies.string(row.get(i + 1));
				case "released" -> released = Replies.string(row.get(i + 1));
				case "state", EchoMqNode.CLAIMED_BY_FIELD -> {
				}
				default -> {
					if (RowPayload.partNumber(name) > 0) {
						if (parts == null) {
							parts = new RowPayload.Parts();
						}
						parts.add(name, Replies.string(row.get(i + 1)));
					}
					else {
						if (fields == null) {
							fields = new HashMap<>();
						}
						fields.put(name, Replies.string(row.get(i + 1)));
					}
				}
			}
		}
		if (parts != null && payload != null) {
			parts.add(RowPayload.FIELD, payload);
			payload = parts.join();
		}
		FencingToken token = FencingToken.of(Long.parseLong(attempts));
		long maxAttempts = Long.parseLong(maxAttemptsText);
		Instant enqueuedAt = Instant.ofEpochMilli(Long.parseLong(enqueuedAtText));
		long attempt = token.value() - ((released != null) ? Long.parseLong(released) : 0);
		return new ClaimedJob(queue, JobId.parse(id), token, attempt, maxAttempts, (payload != null) ? payload : "",
				enqueuedAt, (readyAt != null) ? Instant.ofEpochMilli(Long.parseLong(readyAt)) : enqueuedAt, now,
				deadline, (fields != null) ? Map.copyOf(fields) : Map.of());
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

		final Script completeAll = Script.load("complete_all");

		final Script retry = Script.load("retry");

		final Script extend = Script.load("extend");

		final Script release = Script.load("release");

		final Script reap = Script.load("reap");

		final Script promote = Script.load("promote");

		final Script replay = Script.load("replay");

		final Script purge = Script.load("purge");

		final Script quarantine = Script.load("quarantine");

		final Script trim = Script.load("trim");

		final Script delete = Script.load("delete");

		final Script runNow = Script.load("run_now");

		final Script cancel = Script.load("cancel");

		final Script pause = Script.load("pause");

		List<Script> all() {
			return List.of(this.enqueue, this.claim, this.complete, this.retry, this.extend, this.release, this.reap,
					this.promote, this.replay, this.purge, this.quarantine, this.trim, this.delete, this.runNow,
					this.cancel, this.pause);
		}

	}

	/**
	 * One script call that completes jobs, and the indexes of the jobs it completes.
	 *
	 * @param call the call
	 * @param jobs the indexes, in the call's order
	 */
	private record Completion(ScriptExecutor.Call call, List<Integer> jobs) {

	}

	/**
	 * What one {@code claim} call did.
	 *
	 * @param jobs the jobs it claimed
	 * @param skipped how many candidates it skipped (rows that break the schema)
	 * @param next the page its hint names
	 * @param hintFrom where in pending the hint starts
	 * @param limit the flow limit that held it back, or {@code null}
	 * @param retryAfter how long until the rate window has room, or {@code null}
	 * @param paused whether the queue was paused cluster-wide (nothing claimed)
	 */
	private record ClaimRound(List<ClaimedJob> jobs, int skipped, Page next, long hintFrom,
			ClaimResult.@Nullable Limit limit, @Nullable Duration retryAfter, boolean paused) {

	}

	/**
	 * A page of a location: where it starts, the JOB ids in it (in order), and how many
	 * members it had in all, those that are not JOB ids included.
	 */
	private record Page(long offset, String[] ids, int members) {

		int foreign() {
			return this.members - this.ids.length;
		}

	}

	/**
	 * The due JOB ids of a page and their scores, the members before them that are not
	 * JOB ids, whether the page was due to its end (so the next page may hold due members
	 * too), and the score of the first member past the due horizon
	 * ({@code Long.MAX_VALUE} when the page had none).
	 */
	private record Due(String[] ids, int foreign, boolean more, long[] scores, long later) {

	}

	/**
	 * The earliest time a pass saw a member fall due after it: the first member past the
	 * due horizon, or a candidate that the script found not due yet, or, when a due
	 * candidate stayed where it was, the server time of that call (try again soon).
	 */
	private static final class NextDue {

		private long at = Long.MAX_VALUE;

		void later(Due due) {
			this.at = Math.min(this.at, due.later());
		}

		void left(Due due, long serverNow) {
			long soonest = Long.MAX_VALUE;
			for (long score : due.scores()) {
				if (score > serverNow) {
					soonest = Math.min(soonest, score);
				}
			}
			this.at = Math.min(this.at, (soonest != Long.MAX_VALUE) ? soonest : serverNow);
		}

		OptionalLong at() {
			return (this.at != Long.MAX_VALUE) ? OptionalLong.of(this.at) : OptionalLong.empty();
		}

	}

}
