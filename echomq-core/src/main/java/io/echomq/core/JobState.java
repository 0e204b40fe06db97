package io.echomq.core;

/**
 * Where a job lives. The {@code state} field of a job row always names the key type its
 * id is in.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum JobState {

	/** In {@code pending}, waiting to be claimed. */
	PENDING("pending"),

	/** In {@code active}, leased to a worker. */
	ACTIVE("active"),

	/** In {@code schedule}, waiting for its run-at. */
	SCHEDULE("schedule"),

	/** In {@code dead}, terminal until replayed. */
	DEAD("dead"),

	/**
	 * In {@code quarantine}: the row was malformed or its id sat in a location its state
	 * did not name, so no transition could move it; the row (when there is one) keeps
	 * {@code quarantined_from} and {@code quarantine_reason}. Nothing leaves quarantine
	 * but by hand.
	 */
	QUARANTINE("quarantine"),

	/**
	 * In {@code completed}: finished, kept with its row (state {@code completed},
	 * {@code completed_at}) while the queue's {@link Retention} allows. Without retention
	 * a completed job has no location and no row.
	 */
	COMPLETED("completed"),

	/** A parent of a flow, waiting for its children to finish. */
	WAITING("waiting");

	private final String value;

	JobState(String value) {
		this.value = value;
	}

	/**
	 * Return the value stored in the row's {@code state} field, which is also the type of
	 * the key an id in this state lives in ({@link Keyspace#locationKey}).
	 * @return the field value
	 */
	public String value() {
		return this.value;
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
