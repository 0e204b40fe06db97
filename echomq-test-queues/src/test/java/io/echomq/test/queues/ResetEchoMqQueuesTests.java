package io.echomq.test.queues;

import java.time.Duration;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import io.echomq.test.queues.QueuesTestApplication.Email;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.echomq.test.queues.EchoMqAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ResetEchoMqQueues}: what one test method leaves in the application's queues is
 * gone when the next one starts, whatever location it was left in.
 */
@SpringBootTest(classes = QueuesTestApplication.class,
		properties = { "echomq.listener.auto-startup=false", "echomq.key-prefix=reset-${random.uuid}",
				"echomq.queues.orders.partitions=3" })
@AutoConfigureEchoMqServer
@ResetEchoMqQueues
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResetEchoMqQueuesTests {

	@Autowired
	EchoMqTestQueues queues;

	@Autowired
	EchoMqOperations echoMq;

	@Test
	@Order(1)
	void aTestLeavesJobsInEveryLocation() {
		this.echoMq.enqueue("emails", new Email("left@example.com"));
		this.echoMq.enqueue("emails", new Email("later@example.com"), EnqueueOptions.delayed(Duration.ofHours(1)));
		this.echoMq.enqueue("bounces", new Email("full@example.com"), EnqueueOptions.defaults().withMaxAttempts(1));
		this.queues.drain("bounces");
		for (int i = 0; i < 6; i++) {
			this.echoMq.enqueue("orders", "order-" + i);
		}
		this.echoMq.enqueue("unlistened", "x", EnqueueOptions.defaults().withLane("tenant-a"));
		assertThat(this.queues).queue("emails").hasPending(1).hasScheduled(1);
		assertThat(this.queues).queue("bounces").hasDead(1);
		assertThat(this.queues).queue("orders").hasPending(6);
		assertThat(this.queues.stats("unlistened").pending()).isOne();
	}

	@Test
	@Order(2)
	void theNextTestStartsFromEmptyQueues() {
		assertThat(this.queues).queue("emails").hasPending(0).hasScheduled(0);
		assertThat(this.queues).queue("bounces").hasDead(0);
		assertThat(this.queues).queue("orders").hasPending(0);
		assertThat(this.queues.stats("unlistened").pending()).isZero();
		this.echoMq.enqueue("emails", new Email("one@example.com"));
		assertThat(this.queues).queue("emails").hasPending(1);
	}

	@Test
	@Order(3)
	void aResetReportsWhatItRemoved() {
		this.echoMq.enqueue("emails", new Email("a@example.com"));
		this.echoMq.enqueue("emails", new Email("b@example.com"));
		assertThat(this.queues.reset("emails")).isEqualTo(2);
		assertThat(this.queues.reset("emails")).isZero();
	}

}
