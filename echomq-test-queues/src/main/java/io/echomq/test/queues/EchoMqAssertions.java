package io.echomq.test.queues;

/**
 * Entry point of the AssertJ assertions on an application's queues:
 * {@code assertThat(queues).queue("emails").hasPending(1).hasEnqueued(payload -> ...)}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class EchoMqAssertions {

	private EchoMqAssertions() {
	}

	/**
	 * Start an assertion on the queues of an application.
	 * @param queues the queues
	 * @return the assertion
	 */
	public static QueuesAssert assertThat(EchoMqTestQueues queues) {
		return new QueuesAssert(queues);
	}

}
