package io.echomq.core.internal;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a claim under {@link io.echomq.core.FlowLimits} returned: the jobs, and whether a
 * limit held it back.
 *
 * @param jobs the claimed jobs, possibly none
 * @param limit the limit that held the claim below what was asked, or {@code null}
 * @param retryAfter how long until the rate window next has room once this claim took all
 * it allowed (measured on server time by the claim script), or {@code null} when no rate
 * limit held the claim back, or when the claim ran out of jobs before it took all the
 * window allowed (the window may still have room)
 * @param expired the candidates the claim moved to dead instead because their deadline
 * had passed ({@code expire.lua})
 * @author EchoMQ
 * @since 0.2.0
 */
public record ClaimResult(List<ClaimedJob> jobs, @Nullable Limit limit, @Nullable Duration retryAfter, int expired) {

	/**
	 * Copy the jobs.
	 * @param jobs the jobs
	 * @param limit the limit
	 * @param retryAfter the wait until the rate window has room
	 * @param expired the candidates expired
	 */
	public ClaimResult {
		jobs = List.copyOf(jobs);
	}

	/**
	 * Create a result of a claim that expired no candidate.
	 * @param jobs the jobs
	 * @param limit the limit
	 * @param retryAfter the wait until the rate window has room
	 */
	public ClaimResult(List<ClaimedJob> jobs, @Nullable Limit limit, @Nullable Duration retryAfter) {
		this(jobs, limit, retryAfter, 0);
	}

	/**
	 * Return whether a flow limit held the claim back.
	 * @return {@code true} if a limit applied
	 */
	public boolean isLimited() {
		return this.limit != null;
	}

	/**
	 * The flow limit that held a claim back.
	 */
	public enum Limit {

		/** The queue's cluster-wide cap on active jobs. */
		MAX_ACTIVE,

		/** The queue's rate limit. */
		RATE,

		/** Every lane with ready work is at its cap on active jobs. */
		LANE_MAX_ACTIVE,

		/** Every lane with ready work is at its rate limit. */
		LANE_RATE

	}

}
