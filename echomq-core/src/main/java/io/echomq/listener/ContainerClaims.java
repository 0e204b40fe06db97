package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Claims;
import io.echomq.core.internal.CompleteAndClaimResult;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.FencingToken;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Outcomes;
import io.echomq.core.internal.QueueAdmin;
import io.echomq.core.internal.Results;
import io.echomq.core.internal.StoredFormat;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The one claim path of a container, used by both places that claim: the poller
 * ({@link #claim}, across the queue's partitions) and the completion batcher, whose round
 * trip claims the next jobs for the slots it frees ({@link #completeAll}). Both take what
 * they claimed through {@link #lease}, which makes each job a {@link LeasedJob} in the
 * container's {@link Runs} and hands the jobs back at once if the container was paused
 * while the claim was on the wire.
 * <p>
 * The poller's claims go across the partitions of the queue. Each claim starts at the
 * partition after the one the previous claim started at (the first from a random one, so
 * that containers do not line up) and moves on to the next partition only while it has
 * free slots left, so a partition that always has work cannot starve the others: each one
 * is first in turn. A claim that asks every partition and comes back short lets the
 * poller block on the wake lists, so dry partitions cost no busy loop. With one partition
 * this is exactly one {@link io.echomq.core.internal.Claims#claim} call, as for any
 * queue.
 * <p>
 * Each partition's claim runs on a thread of that partition, and the poller waits for it
 * at most {@link #PATIENCE}: a claim still out then (its master was killed and the call
 * waits out the command timeout) is left running and the poller moves on, so the
 * partitions on the live masters go on draining. The jobs of a claim that answers late
 * are taken by a later claim (the poller waits at most {@link #PATIENCE} while one is
 * out); those beyond its free slots are released. A partition whose claim fails is marked
 * down and passed over: a probe on a thread of its own reads one of its keys, at most
 * every {@link #PROBE_INTERVAL}, and marks it up again once that succeeds (the poller
 * waits at most that long while a partition is down). A claim fails only when it got
 * nothing and some partition failed, so the poller backs off rather than spin.
 * <p>
 * {@link #claim} is called by the poller thread only.
 *
 * @author EchoMQ
 */
final class ContainerClaims {

	private static final LogAccessor logger = new LogAccessor(ContainerClaims.class);

	/** Least time between two probes of a partition that is down. */
	static final Duration PROBE_INTERVAL = Duration.ofMillis(500);

	/** Longest the poller waits for one partition's claim before it moves on. */
	static final Duration PATIENCE = Duration.ofMillis(200);

	private final Claims claimVerbs;

	private final Outcomes outcomes;

	private final StoredFormat formats;

	private final QueueAdmin admin;

	private final Results results;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final ContainerSettings settings;

	private final EchoMqNode node;

	private final Runs runs;

	private final ListenerCounters counters;

	private final JobEvents events;

	private final LongAdder claimedWithCompletions = new LongAdder();

	private final List<String> names;

	private final boolean[] down;

	private final long[] probedAt;

	private final AtomicBoolean[] probing;

	private final @Nullable ExecutorService[] claimers;

	/**
	 * Claims that did not answer within the patience, by partition; poller thread only.
	 */
	private final @Nullable Future<ClaimResult>[] outstanding;

	private int next;

	ContainerClaims(QueuePartitions partitions, Engine jobs, ContainerSettings settings, EchoMqNode node, Runs runs,
			ListenerCounters counters, JobEvents events) {
		this.names = partitions.names();
		int count = this.names.size();
		this.down = new boolean[count];
		this.probedAt = new long[count];
		this.probing = new AtomicBoolean[count];
		for (int i = 0; i < count; i++) {
			this.probing[i] = new AtomicBoolean();
		}
		this.next = (count > 1) ? ThreadLocalRandom.current().nextInt(count) : 0;
		this.claimers = new ExecutorService[count];
		@SuppressWarnings("unchecked")
		Future<ClaimResult>[] futures = new Future[count];
		this.outstanding = futures;
		this.claimVerbs = jobs.claims();
		this.outcomes = jobs.outcomes();
		this.formats = jobs.formats();
		this.admin = jobs.admin();
		this.results = jobs.results();
		this.keyspace = jobs.keyspace();
		this.template = jobs.executor().getTemplate();
		this.settings = settings;
		this.node = node;
		this.runs = runs;
		this.counters = counters;
		this.events = events;
	}

	/**
	 * Claim up to {@code max} jobs across the partitions of the queue (poller thread).
	 * @param max the most jobs to claim
	 * @return what the claim returned, not yet leased
	 */
	ClaimResult claim(int max) {
		return claimAcross(this.settings.lease(), max, this.settings.limits(), this.node);
	}

	/**
	 * Take charge of jobs a claim returned: from here on each token is used only through
	 * its {@link LeasedJob}. If the container was paused while the claim was on the wire,
	 * the jobs are handed back rather than run, and none is returned.
	 * @param claimed the claimed jobs
	 * @return the runs to dispatch, empty when they were handed back
	 */
	List<LeasedJob> lease(List<ClaimedJob> claimed) {
		if (claimed.isEmpty()) {
			return List.of();
		}
		List<LeasedJob> leased = new ArrayList<>(claimed.size());
		for (ClaimedJob job : claimed) {
			LeasedJob run = new LeasedJob(job, this.outcomes, this.admin, this.results, this.settings, this.counters,
					this.events);
			this.runs.track(run);
			leased.add(run);
		}
		if (this.runs.isPaused()) {
			// paused while the claim was on the wire: hand the jobs back rather than run
			// them
			leased.forEach(this::handBack);
			return List.of();
		}
		return leased;
	}

	/**
	 * Hand back a leased job that does not run here, without spending an attempt.
	 * @param run the run
	 */
	void handBack(LeasedJob run) {
		this.runs.forget(run);
		try {
			run.release();
		}
		catch (Throwable ex) {
			logger.warn(ex, () -> "Cannot hand back " + run + "; it runs again when its lease expires");
		}
	}

	/**
	 * Send the completions of settled runs of one engine queue in one round trip and,
	 * while the container runs unpaused on a queue of one partition, claim as many jobs
	 * for the slots they free (a partitioned queue's claims go through its poller, which
	 * spreads them and copes with a partition that is down).
	 * @param queue the engine queue of the runs
	 * @param settled the settled runs
	 * @return the reply to each completion ({@code null} when the round trip failed) and
	 * the runs claimed with them
	 */
	Completions completeAll(String queue, List<LeasedJob> settled) {
		List<JobId> ids = new ArrayList<>(settled.size());
		List<FencingToken> tokens = new ArrayList<>(settled.size());
		List<@Nullable String> uniqueKeys = new ArrayList<>(settled.size());
		List<@Nullable String> flowParents = new ArrayList<>(settled.size());
		List<@Nullable String> jobResults = new ArrayList<>(settled.size());
		for (LeasedJob run : settled) {
			ClaimedJob job = run.claimed();
			ids.add(job.id());
			tokens.add(job.token());
			uniqueKeys.add(job.uniqueKey());
			flowParents.add(job.flowParent());
			jobResults.add(run.output().result());
		}
		List<@Nullable TransitionResult> results = null;
		List<ClaimedJob> next = List.of();
		try {
			int claimable = (this.runs.isRunning() && !this.runs.isPaused() && !isPartitioned()) ? settled.size() : 0;
			if (claimable > 0) {
				CompleteAndClaimResult reply = this.claimVerbs.completeAllAndClaim(queue, ids, tokens, uniqueKeys,
						flowParents, jobResults, this.settings.lease(), claimable, this.settings.limits(), this.node);
				results = reply.completions();
				next = expiring(queue, reply.claim()).jobs();
			}
			else {
				results = this.outcomes.completeAll(queue, ids, tokens, uniqueKeys, flowParents, jobResults);
			}
		}
		catch (Throwable ex) {
			logger.debug(ex, () -> "Batch of " + settled.size() + " completions failed; sending them one by one");
		}
		List<LeasedJob> leased = lease(next);
		this.claimedWithCompletions.add(leased.size());
		return new Completions(results, leased);
	}

	/**
	 * Return how many jobs were claimed with completions, in their round trip.
	 * @return the count since the container was created
	 */
	long claimedWithCompletions() {
		return this.claimedWithCompletions.sum();
	}

	/**
	 * Return how long the queue is paused cluster-wide, if it is.
	 * @return the pause left, or {@code null}
	 */
	@Nullable Duration lastClaimPause() {
		return this.claimVerbs.lastClaimPause(this.settings.queue());
	}

	/**
	 * Return how long the poller may wait after a short claim: at most {@link #PATIENCE}
	 * while a partition's claim is still out or a partition is down, so that it claims
	 * again soon (poller thread).
	 * @param idleWait the wait otherwise
	 * @return the wait
	 */
	Duration recoveryWait(Duration idleWait) {
		return (isRecovering() && PATIENCE.compareTo(idleWait) < 0) ? PATIENCE : idleWait;
	}

	/**
	 * Stop the partition claim threads (poller thread, as it ends).
	 */
	/**
	 * Claim across the partitions: each from the partition after the one the previous
	 * claim started at, moving on while slots are left.
	 */
	private ClaimResult claimAcross(Duration lease, int max, FlowLimits limits, EchoMqNode owner) {
		if (this.names.size() == 1) {
			String name = this.names.get(0);
			this.formats.check(name);
			return expiring(name, this.claimVerbs.claim(name, lease, max, limits, owner));
		}
		FlowLimits share = limits.perPartition(this.names.size());
		ClaimResult.Limit limit = null;
		Duration retryAfter = null;
		int start = this.next;
		this.next = (start + 1) % this.names.size();
		List<ClaimedJob> claimed = new ArrayList<>(max);
		RuntimeException failure = null;
		for (int partition = 0; partition < this.names.size(); partition++) {
			Future<ClaimResult> late = this.outstanding[partition];
			if (late != null && late.isDone()) {
				this.outstanding[partition] = null;
				failure = collect(partition, late, 0, max, claimed, failure);
			}
		}
		for (int i = 0; i < this.names.size() && claimed.size() < max; i++) {
			int partition = (start + i) % this.names.size();
			if (this.outstanding[partition] != null) {
				continue;
			}
			if (isDown(partition)) {
				probe(partition);
				continue;
			}
			String name = this.names.get(partition);
			int wanted = max - claimed.size();
			Future<ClaimResult> call = claimer(partition).submit(() -> {
				this.formats.check(name);
				return expiring(name, this.claimVerbs.claim(name, lease, wanted, share, owner));
			});
			failure = collect(partition, call, PATIENCE.toNanos(), max, claimed, failure);
			ClaimResult result = (call.isDone() && !call.isCancelled()) ? now(call) : null;
			if (result != null && result.isLimited()) {
				limit = result.limit();
				Duration after = result.retryAfter();
				retryAfter = (retryAfter == null || (after != null && after.compareTo(retryAfter) < 0)) ? after
						: retryAfter;
			}
		}
		if (claimed.isEmpty() && failure != null) {
			throw failure;
		}
		return new ClaimResult(claimed, claimed.isEmpty() ? limit : null, claimed.isEmpty() ? retryAfter : null);
	}

	/**
	 * Tell the job event listeners of the jobs a claim moved past their deadline to dead.
	 */
	private ClaimResult expiring(String name, ClaimResult result) {
		if (result.expired() > 0) {
			this.events.expired(name, result.expired());
		}
		return result;
	}

	/**
	 * Wait up to {@code patience} for a partition's claim and add its jobs, up to
	 * {@code max} in all; the others are released. A claim not done by then is left
	 * outstanding; a failed one marks the partition down.
	 * @return the first failure so far
	 */
	private @Nullable RuntimeException collect(int partition, Future<ClaimResult> call, long patience, int max,
			List<ClaimedJob> claimed, @Nullable RuntimeException failure) {
		ClaimResult result;
		try {
			result = call.get(patience, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			this.outstanding[partition] = call;
			return failure;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.outstanding[partition] = call;
			return failure;
		}
		catch (ExecutionException ex) {
			markDown(partition);
			RuntimeException cause = (ex.getCause() instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException("Claim on " + this.names.get(partition) + " failed", ex.getCause());
			return (failure != null) ? failure : cause;
		}
		for (ClaimedJob job : result.jobs()) {
			if (claimed.size() < max) {
				claimed.add(job);
			}
			else {
				release(partition, job);
			}
		}
		return failure;
	}

	private static @Nullable ClaimResult now(Future<ClaimResult> call) {
		try {
			return call.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (ExecutionException ex) {
			return null;
		}
	}

	private void release(int partition, ClaimedJob job) {
		try {
			this.outcomes.release(this.names.get(partition), job.id(), job.token());
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot release " + job.id() + " claimed late on " + this.names.get(partition)
					+ "; it runs again once its lease expires");
		}
	}

	private ExecutorService claimer(int partition) {
		ExecutorService claimer = this.claimers[partition];
		if (claimer == null) {
			String name = "echomq-claim-" + this.names.get(partition);
			claimer = Executors.newSingleThreadExecutor((task) -> {
				Thread thread = new Thread(task, name);
				thread.setDaemon(true);
				return thread;
			});
			this.claimers[partition] = claimer;
		}
		return claimer;
	}

	/**
	 * Return whether a claim is still out or a partition is down: the poller then claims
	 * again within {@link #PATIENCE} rather than block for its whole idle wait.
	 * @return whether a partition is waiting to be taken up again
	 */
	private boolean isRecovering() {
		for (int partition = 0; partition < this.names.size(); partition++) {
			if (this.outstanding[partition] != null || isDown(partition)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Stop the partition claim threads (poller thread, as it ends); claims still out are
	 * left to finish on their own (their jobs are left to lease expiry).
	 */
	void close() {
		for (int partition = 0; partition < this.claimers.length; partition++) {
			ExecutorService claimer = this.claimers[partition];
			if (claimer != null) {
				claimer.shutdown();
				this.claimers[partition] = null;
			}
			this.outstanding[partition] = null;
		}
	}

	private boolean isDown(int partition) {
		synchronized (this.down) {
			return this.down[partition];
		}
	}

	private void markDown(int partition) {
		synchronized (this.down) {
			this.down[partition] = true;
			this.probedAt[partition] = System.nanoTime();
		}
	}

	private void probe(int partition) {
		synchronized (this.down) {
			if (System.nanoTime() - this.probedAt[partition] < PROBE_INTERVAL.toNanos()) {
				return;
			}
		}
		if (!this.probing[partition].compareAndSet(false, true)) {
			return;
		}
		String key = this.keyspace.queueKey(this.names.get(partition), KeyType.PENDING.suffix());
		Thread thread = new Thread(() -> {
			try {
				this.template.hasKey(key);
				synchronized (this.down) {
					this.down[partition] = false;
				}
			}
			catch (RuntimeException ex) {
				// still down: the next claim probes again after the interval
			}
			finally {
				synchronized (this.down) {
					this.probedAt[partition] = System.nanoTime();
				}
				this.probing[partition].set(false);
			}
		}, "echomq-probe-" + this.names.get(partition));
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Return the engine queue names of the queue's partitions.
	 * @return the partition names
	 */
	List<String> names() {
		return this.names;
	}

	boolean isPartitioned() {
		return this.names.size() > 1;
	}

	/**
	 * The reply to a round trip of completions.
	 *
	 * @param results the reply to each completion, in order, each {@code null} when it is
	 * unknown whether it applied; {@code null} when the round trip failed
	 * @param next the runs claimed with the completions, to take the slots they free
	 */
	record Completions(@Nullable List<@Nullable TransitionResult> results, List<LeasedJob> next) {

		@Nullable TransitionResult result(int index) {
			List<@Nullable TransitionResult> all = this.results;
			return (all != null) ? all.get(index) : null;
		}

	}

}
