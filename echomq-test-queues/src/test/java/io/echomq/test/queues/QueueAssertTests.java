package io.echomq.test.queues;

import io.echomq.EchoMqOperations;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import io.echomq.test.queues.QueuesTestApplication.Email;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.echomq.test.queues.EchoMqAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The queue assertions fail with a message saying what the queue holds.
 */
@SpringBootTest(classes = QueuesTestApplication.class,
		properties = { "echomq.listener.auto-startup=false", "echomq.key-prefix=asserts-${random.uuid}" })
@AutoConfigureEchoMqServer
class QueueAssertTests {

	@Autowired
	EchoMqTestQueues queues;

	@Autowired
	EchoMqOperations echoMq;

	@Test
	void aCountThatDiffersFailsNamingTheQueueAndBothCounts() {
		this.echoMq.enqueue("emails", new Email("ada@example.com"));

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.queues).queue("emails").hasPending(2))
			.withMessageContaining("Expected queue 'emails' to hold 2 pending jobs, but it holds 1");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.queues).queue("emails").isDrained())
			.withMessageContaining("0 pending jobs, but it holds 1");
	}

	@Test
	void aMissingPayloadFailsListingThePayloadsTheQueueHolds() {
		this.echoMq.enqueue("bounces", new Email("grace@example.com"));

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(
					() -> assertThat(this.queues).queue("bounces").hasEnqueued((payload) -> payload.contains("ada@")))
			.withMessageContaining("Expected queue 'bounces' to hold a pending or scheduled job")
			.withMessageContaining("{\"to\":\"grace@example.com\"}");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(
				() -> assertThat(this.queues).queue("bounces").hasNotEnqueued((payload) -> payload.contains("grace@")))
			.withMessageContaining("{\"to\":\"grace@example.com\"}");
	}

}
