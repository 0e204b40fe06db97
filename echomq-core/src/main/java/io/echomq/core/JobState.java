package io.echomq.core;

import io.echomq.core.internal.KeyType;

/**
 * Where a job lives. The {@code state} field of a job row always names the key type its
 * id is in.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum JobState {

	/** In {@code pending}, waiting to be claimed. */
	PENDING(KeyType.PENDING),

	/** In {@code active}, leased to a worker. */
	ACTIVE(KeyType.ACTIVE),

	/** In {@code schedule}, waiting for its run-at. */
	SCHEDULE(KeyType.SCHEDULE),

	/** In {@code dead}, terminal until replayed. */
	DEAD(KeyType.DEAD),

	/**
	 * In {@code quarantine}: the row was malformed or its id sat in a location its state
	 * did not name, so no transition could move it; the row (when there is one) keeps
	 * {@code quarantined_from} and {@code quarantine_reason}. Nothing leaves quarantine
	 * but by hand.
	 */
	QUARANTINE(KeyType.QUARANTINE),

	/**
	 * In {@code completed}: finished, kept with its row (state {@code completed},
	 * {@code completed_at}) while the queue's {@link Retention} allows. Without retention
	 * a completed job has no location and no row.
	 */
	COMPLETED(KeyType.COMPLETED),

	/** A parent of a flow, waiting for its children to finish. */
	WAITING(KeyType.WAITING);

	private final KeyType location;

	JobState(KeyType location) {
		this.location = location;
	}

	/**
	 * Return the key type an id in this state lives in.
	 * @return the location
	 */
	public KeyType location() {
		return this.location;
	}

	/**
	 * Return the value stored in the row's {@code state} field.
	 * @return the field value
	 */
	public String value() {
		return this.location.suffix();
	}

	/**
	 * Return the state for a row's {@code state} field value.
	 * @param value the field value
	 * @return the state
	 * @throws IllegalArgumentException if the value names no state
	 */
	public static JobState fromValue(String value) {
		for (JobState state : values()) {
			if (state.value().equals(value)) {
				return state;
			}
		}
		throw new IllegalArgumentException("Unknown job state '" + value + "'");
	}

}
