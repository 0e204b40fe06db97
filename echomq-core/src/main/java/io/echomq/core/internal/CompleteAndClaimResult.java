package io.echomq.core.internal;

import io.echomq.core.TransitionResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What {@link io.echomq.core.internal.Claims#completeAllAndClaim} did: the outcome of
 * each completion and the jobs claimed in the same round trip.
 *
 * @param completions per job, in order: applied or stale, or {@code null} when not known
 * to be recorded (the caller sends it again on its own)
 * @param claim the jobs claimed for the freed slots, possibly none
 * @author EchoMQ
 * @since 0.2.0
 */
public record CompleteAndClaimResult(List<@Nullable TransitionResult> completions, ClaimResult claim) {

	/**
	 * Copy the completions.
	 * @param completions the completions' outcomes
	 * @param claim the claimed jobs
	 */
	public CompleteAndClaimResult {
		completions = Collections.unmodifiableList(new ArrayList<>(completions));
	}

}
