package io.echomq.events;

import java.util.Locale;

/**
 * What a job event says happened: one transition, as the script that made it wrote it to
 * the queue's event stream.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public enum JobEventType {

	/** The job was enqueued (to pending, or to schedule when delayed). */
	ADDED,

	/** A worker claimed the job: the event's attempts is the claim's token. */
	CLAIMED,

	/** The running job reported progress. */
	PROGRESS,

	/** The job completed; the event carries the size of its result. */
	COMPLETED,

	/** The attempt failed and the job waits for another (schedule or pending). */
	RETRIED,

	/**
	 * The job was dead-lettered (last attempt failed, a fatal error, or its last lease
	 * expired).
	 */
	DEAD,

	/** The job's lease expired and it went back to pending. */
	REAPED,

	/** The job was cancelled. */
	CANCELLED,

	/** A stopping worker handed the job back unfinished. */
	RELEASED,

	/** A delayed job became due and moved to pending. */
	PROMOTED,

	/**
	 * A delayed job was made due now, without leaving the schedule (run now of a job of a
	 * lane: the next promote returns it to its lane).
	 */
	SCHEDULED,

	/** A dead job was replayed with a fresh attempt budget. */
	REPLAYED,

	/** The job was deleted, with its row, from the location the event names. */
	DELETED,

	/** A dead job was deleted by a purge of the dead letters. */
	PURGED,

	/**
	 * The job was set aside in quarantine: no transition could read it (the event names
	 * where it was and why).
	 */
	QUARANTINED,

	/**
	 * The job was not claimed by its deadline: a claim or a promotion moved it to dead
	 * instead (state dead, the error naming the deadline).
	 * @since 0.5.0
	 */
	EXPIRED,

	/** A type this version does not know (written by a newer node). */
	OTHER;

	/**
	 * Return the type a stream entry names.
	 * @param value the entry's {@code type} field
	 * @return the type, {@link #OTHER} for one this version does not know
	 */
	public static JobEventType fromValue(String value) {
		try {
			return valueOf(value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			return OTHER;
		}
	}

}
