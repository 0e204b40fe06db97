package io.echomq.schedule;

import io.echomq.core.EchoMqException;

/**
 * Thrown by a verb on one schedule (pause, resume, delete) when the queue has no schedule
 * of that name. Nothing is written.
 *
 * @author EchoMQ
 * @since 0.5.0
 */
public class UnknownScheduleException extends EchoMqException {

	private final String queue;

	private final String name;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param name the schedule name
	 */
	public UnknownScheduleException(String queue, String name) {
		super("Queue '" + queue + "' has no schedule '" + name + "'; nothing was written");
		this.queue = queue;
		this.name = name;
	}

	/**
	 * Return the queue.
	 * @return the queue name
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the schedule name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

}
