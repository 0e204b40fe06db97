package io.echomq.schedule;

/**
 * What a schedule does about fire times that passed while no node ran its tick (every
 * node down, or the queue not ticked), longer ago than the misfire threshold.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum MisfirePolicy {

	/** Fire nothing for the missed times; the next fire is the next future time. */
	SKIP,

	/**
	 * Fire once for all the missed times, at once, then go on from the next future time.
	 */
	RUN_ONCE,

	/**
	 * Fire the most recent missed times, each as its own occurrence, oldest first, at
	 * most {@link ScheduleSpec#maxCatchUp()} of them (older ones are skipped), then go on
	 * from the next future time.
	 * @since 0.5.0
	 */
	CATCH_UP

}
