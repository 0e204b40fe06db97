package io.echomq.core;

/**
 * How long a {@linkplain UniqueKey unique key} keeps other enqueues with the same key
 * out.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum UniqueMode {

	/**
	 * While the job exists: pending, scheduled or active. The key is released by the
	 * script that completes the job or dead-letters it; a retry keeps it.
	 */
	UNTIL_DONE("until_done"),

	/**
	 * For a window after the enqueue (server time), whatever becomes of the job: the key
	 * expires on its own, and no transition releases it.
	 */
	THROTTLE("throttle"),

	/**
	 * While the job waits: an enqueue with the same key replaces the payload of the
	 * pending or scheduled job and pushes its run-at back to the window from now. Once
	 * the job runs, the next enqueue makes a new job (which takes the key over).
	 */
	DEBOUNCE("debounce");

	private final String value;

	UniqueMode(String value) {
		this.value = value;
	}

	/**
	 * Return the mode as the row field {@code unique_mode} and the scripts spell it.
	 * @return the value, e.g. {@code until_done}
	 */
	public String value() {
		return this.value;
	}

}
