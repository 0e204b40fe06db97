package io.echomq.flow;

/**
 * What a child of a flow that dies does to its parent (see {@code docs/flows.md}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum ChildFailure {

	/** The parent is dead-lettered, its last error naming the child (the default). */
	FAIL_PARENT("fail"),

	/** The child is recorded as failed and the parent still runs. */
	IGNORE("ignore"),

	/** The child is dropped from the parent's dependencies and the parent still runs. */
	REMOVE("remove");

	private final String value;

	ChildFailure(String value) {
		this.value = value;
	}

	/**
	 * Return the value kept on the child's row (field {@code flow_policy}).
	 * @return the value
	 */
	public String value() {
		return this.value;
	}

}
