package io.echomq.schedule;

/**
 * What a schedule does at a fire time while the job of its previous occurrence is still
 * live: pending, scheduled (a retry waiting for its backoff) or active. The fire script
 * reads where the previous occurrence's job is in the same atomic move that fires, so the
 * policy holds across nodes.
 *
 * @author EchoMQ
 * @since 0.5.0
 */
public enum OverlapPolicy {

	/**
	 * Fire whatever the previous occurrence is doing (occurrences may run side by side).
	 */
	ALLOW,

	/**
	 * Fire nothing while the previous occurrence is live: the fire time is skipped and
	 * the next fire time is the following one.
	 */
	SKIP,

	/**
	 * Cancel the previous occurrence, then fire: a pending or scheduled one is removed
	 * (counted as cancelled), an active one is asked to cancel through the cancel path
	 * (its handler is interrupted at its next lease renewal and its outcome discarded),
	 * so for a while the two may overlap.
	 */
	CANCEL_PREVIOUS,

	/**
	 * Hold one occurrence behind the previous one: while the previous is live the due
	 * fire time is held (the next fire time does not move, so at most one occurrence
	 * waits, and the times passing meanwhile fold into it); the held occurrence fires at
	 * the first tick after the previous one finished, however late (it is not a misfire),
	 * and the schedule goes on from its next future time.
	 */
	HOLD_ONE

}
