package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.ClaimResult;
import io.echomq.core.ClaimedJob;
import io.echomq.core.CompleteAndClaimResult;
import io.echomq.core.EchoMqNode;
import io.echomq.core.FencingToken;
import io.echomq.core.JobId;
import io.echomq.core.Jobs;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * The one claim path of a container, used by both places that claim: the poller
 * ({@link #claim}, across the queue's partitions) and the completion batcher, whose round
 * trip claims the next jobs for the slots it frees ({@link #completeAll}). Both take what
 * they claimed through {@link #lease}, which makes each job a {@link LeasedJob} in the
 * container's {@link Runs} and hands the jobs back at once if the container was paused
 * while the claim was on the wire.
 *
 * @author EchoMQ
 */
final class ContainerClaims {

	private static final LogAccessor logger = new LogAccessor(ContainerClaims.class);

	private final PartitionClaims partitions;

	private final Jobs jobs;

	private final ContainerSettings settings;

	private final EchoMqNode node;

	private final Runs runs;

	private final ListenerCounters counters;

	private final JobEvents events;

	private final LongAdder claimedWithCompletions = new LongAdder();

	ContainerClaims(PartitionClaims partitions, Jobs jobs, ContainerSettings settings, EchoMqNode node, Runs runs,
			ListenerCounters counters, JobEvents events) {
		this.partitions = partitions;
		this.jobs = jobs;
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
		return this.partitions.claim(this.jobs, this.settings.lease(), max, this.settings.limits(), this.node);
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
			LeasedJob run = new LeasedJob(job, this.jobs, this.settings, this.counters, this.events);
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
		for (LeasedJob run : settled) {
			ClaimedJob job = run.job();
			ids.add(job.id());
			tokens.add(job.token());
			uniqueKeys.add(job.uniqueKey());
		}
		List<@Nullable TransitionResult> results = null;
		List<ClaimedJob> next = List.of();
		try {
			int claimable = (this.runs.isRunning() && !this.runs.isPaused() && !isPartitioned()) ? settled.size() : 0;
			if (claimable > 0) {
				CompleteAndClaimResult reply = this.jobs.completeAllAndClaim(queue, ids, tokens, uniqueKeys,
						this.settings.lease(), claimable, this.settings.limits(), this.node);
				results = reply.completions();
				next = reply.claim().jobs();
			}
			else {
				results = this.jobs.completeAll(queue, ids, tokens, uniqueKeys);
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
		return this.jobs.lastClaimPause(this.settings.queue());
	}

	/**
	 * Return whether a partition's claim is still out or a partition is down (poller
	 * thread).
	 * @return whether a partition is waiting to be taken up again
	 */
	boolean isRecovering() {
		return this.partitions.isRecovering();
	}

	/**
	 * Stop the partition claim threads (poller thread, as it ends).
	 */
	void close() {
		this.partitions.close();
	}

	/**
	 * Return the engine queue names of the queue's partitions.
	 * @return the partition names
	 */
	List<String> names() {
		return this.partitions.names();
	}

	boolean isPartitioned() {
		return this.partitions.names().size() > 1;
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
