package io.echomq.schedule;

/**
 * Where a schedule in the store was declared. Schedules declared by the application
 * (annotation, properties) are reconciled at start-up: one no longer declared is removed.
 * Schedules put by the API are kept until the API removes them.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum ScheduleOrigin {

	/** Put by {@code EchoMqTemplate.schedule(...)}; kept until unscheduled. */
	API,

	/** Declared by {@code @EchoSchedule} on a bean method. */
	ANNOTATION,

	/** Declared under {@code echomq.schedules.<name>}. */
	PROPERTIES;

	/**
	 * Return whether the application declares schedules of this origin at start-up, so
	 * that one it no longer declares is removed from the store.
	 * @return whether the schedule is declared
	 */
	public boolean isDeclared() {
		return this != API;
	}

}
