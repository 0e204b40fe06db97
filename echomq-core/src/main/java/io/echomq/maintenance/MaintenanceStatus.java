package io.echomq.maintenance;

import java.time.Duration;
import java.time.Instant;

import io.echomq.core.Experimental;
import org.jspecify.annotations.Nullable;

/**
 * What this node's maintenance ticks have done: the reap tick (expired leases back to
 * pending) and the promote tick (due scheduled jobs to pending), which every node runs.
 * The health indicator reads it to tell a stalled tick.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
@Experimental
public interface MaintenanceStatus {

	/**
	 * Return whether the ticks run.
	 * @return {@code true} once started and until stopped
	 */
	boolean isRunning();

	/**
	 * Return when the reap tick last succeeded.
	 * @return the time, or {@code null} if it never did
	 */
	@Nullable Instant getLastReap();

	/**
	 * Return when the promote tick last succeeded.
	 * @return the time, or {@code null} if it never did
	 */
	@Nullable Instant getLastPromote();

	/**
	 * Return how many reap ticks succeeded.
	 * @return the count
	 */
	long getReapTicks();

	/**
	 * Return how many promote ticks succeeded.
	 * @return the count
	 */
	long getPromoteTicks();

	/**
	 * Return how many ticks failed.
	 * @return the count
	 */
	long getFailedTicks();

	/**
	 * Return how long the reap tick may go without success before it counts as stalled.
	 * @return the bound
	 */
	Duration reapBound();

	/**
	 * Return how long the promote tick may go without success before it counts as
	 * stalled.
	 * @return the bound
	 */
	Duration promoteBound();

}
