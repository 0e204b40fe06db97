package io.echomq.test.queues;

import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on an application's queues; {@link #queue(String)} picks the queue.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class QueuesAssert extends AbstractAssert<QueuesAssert, EchoMqTestQueues> {

	QueuesAssert(EchoMqTestQueues queues) {
		super(queues, QueuesAssert.class);
	}

	/**
	 * Assert on one queue (all its partitions).
	 * @param queue the queue name
	 * @return the assertion on the queue
	 */
	public QueueAssert queue(String queue) {
		isNotNull();
		return new QueueAssert(this.actual, queue);
	}

}
