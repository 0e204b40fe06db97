package io.echomq.core;

import io.echomq.inspect.QueueAuditor;

/**
 * Why a fenced transition changed nothing. The scripts reply with the code of one of
 * these, never free text to parse.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum StaleReason {

	/**
	 * The job's row is gone: it completed (a completion sent again after a lost reply
	 * finds this) or was purged.
	 */
	DONE,

	/**
	 * The id is not in {@code active}: its lease expired and it was reaped, or released.
	 */
	NOT_ACTIVE,

	/** The row's {@code state} does not name the location the transition starts from. */
	WRONG_STATE,

	/**
	 * The caller's fencing token is not the row's {@code attempts}: a later claim took
	 * over.
	 */
	TOKEN_MISMATCH,

	/** A replay found the job outside {@code dead}. */
	NOT_DEAD,

	/** A run-now found the job outside {@code schedule}. */
	NOT_SCHEDULED,

	/** A delete found no row for the id: the job is gone, or never existed. */
	NOT_FOUND,

	/** A delete found the job {@code active}: a worker holds its lease. */
	ACTIVE,

	/**
	 * The job's row breaks the row schema: it is missing, not a hash, lacks a required
	 * field ({@code state}, {@code attempts}, {@code max_attempts}, {@code enqueued_at}),
	 * or holds something other than an integer where the engine needs one
	 * ({@code priority}, {@code released}, ...). The detail names the field. Nothing
	 * changed: a script never writes to a row it could not validate. Such a job is left
	 * for the quarantine sweep
	 * ({@link io.echomq.core.internal.Upkeep#quarantineSuspects(String)}), which moves it
	 * to the {@link io.echomq.core.internal.KeyType#QUARANTINE quarantine} location, and
	 * the {@link QueueAuditor audit} reports it.
	 */
	MALFORMED_ROW,

	/**
	 * A cancel was asked for the running job
	 * ({@link io.echomq.core.internal.QueueAdmin#cancel(String, JobId)}) and the
	 * transition retired it as cancelled instead of applying: the job is gone, the
	 * caller's outcome discarded. The one stale reply after which something did change.
	 */
	CANCELLED,

	/**
	 * A lease renewal found a cancel asked for the running job: the lease was not
	 * renewed, and the worker should stop the handler. Its outcome, when it comes, is
	 * retired as {@link #CANCELLED}.
	 */
	CANCEL_REQUESTED;

	/**
	 * Return the reason for a code a script replied with.
	 * @param code the code, the enum constant's name
	 * @return the reason
	 * @throws IllegalArgumentException if the code names no reason
	 */
	public static StaleReason fromCode(String code) {
		for (StaleReason reason : values()) {
			if (reason.name().equals(code)) {
				return reason;
			}
		}
		throw new IllegalArgumentException("Unknown EchoMQ stale reason '" + code + "'");
	}

}
