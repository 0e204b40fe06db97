package io.echomq.test.queues;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobState;
import io.echomq.schedule.ScheduleFire;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import io.echomq.test.queues.QueuesTestApplication.Email;
import io.echomq.test.queues.QueuesTestApplication.Mailer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.echomq.test.queues.EchoMqAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The drain, schedules fired on demand and the queue assertions, in a Spring Boot test of
 * an application with {@code @EchoJob} listeners that do not start on their own.
 */
@SpringBootTest(classes = QueuesTestApplication.class,
		properties = { "echomq.listener.auto-startup=false", "echomq.key-prefix=queues-${random.uuid}",
				"echomq.queues.orders.partitions=3" })
@AutoConfigureEchoMqServer
class EchoMqTestQueuesTests {

	@Autowired
	EchoMqTestQueues queues;

	@Autowired
	EchoMqOperations echoMq;

	@Autowired
	Mailer mailer;

	@Test
	void drainRunsThePendingJobsOnTheTestThreadThroughTheListenersHandler() {
		this.echoMq.enqueue("emails", new Email("ada@example.com"));
		this.echoMq.enqueue("emails", new Email("grace@example.com"));
		assertThat(this.queues).queue("emails")
			.hasPending(2)
			.hasEnqueued("{\"to\":\"ada@example.com\"}")
			.hasEnqueued((payload) -> payload.contains("grace@"));
		assertThat(this.mailer.sent).isEmpty();

		DrainResult drained = this.queues.drain("emails");

		assertThat(drained).isEqualTo(new DrainResult(2, 2, 0, 0, 0));
		assertThat(this.mailer.sent).containsExactly("ada@example.com #1", "grace@example.com #1");
		assertThat(this.mailer.threads).containsOnly(Thread.currentThread().getName());
		assertThat(this.queues).queue("emails").isDrained().hasDead(0);
	}

	@Test
	void drainRunsScheduledJobsOnlyOnceTimeIsMovedPastTheirRunAt() {
		this.echoMq.enqueue("later", new Email("later@example.com"), EnqueueOptions.delayed(Duration.ofHours(1)));
		List<String> ran = new CopyOnWriteArrayList<>();

		assertThat(this.queues.drain("later", (job, context) -> ran.add(job.payload())).ran()).isZero();
		assertThat(this.queues.drain("later", (job, context) -> ran.add(job.payload()), Duration.ofMinutes(30)).ran())
			.isZero();
		assertThat(this.queues).queue("later").hasPending(0).hasScheduled(1);

		DrainResult drained = this.queues.drain("later", (job, context) -> ran.add(job.payload()), Duration.ofHours(2));

		assertThat(drained.completed()).isOne();
		assertThat(ran).containsExactly("{\"to\":\"later@example.com\"}");
		assertThat(this.queues).queue("later").isDrained();
	}

	@Test
	void aFailingJobIsRetriedWithBackoffAndDeadLetteredAsInProduction() {
		this.echoMq.enqueue("bounces", new Email("full@example.com"));

		DrainResult first = this.queues.drain("bounces");

		assertThat(first).isEqualTo(new DrainResult(1, 0, 1, 0, 0));
		assertThat(this.queues).queue("bounces").hasPending(0).hasScheduled(1).hasDead(0);

		DrainResult rest = this.queues.drainAll("bounces");

		assertThat(rest).isEqualTo(new DrainResult(2, 0, 1, 1, 0));
		assertThat(this.queues).queue("bounces")
			.isDrained()
			.hasDead(1)
			.hasDeadJob((job) -> job.attempts() == 3 && job.lastError() != null
					&& job.lastError().contains("mailbox of full@example.com is full"));
	}

	@Test
	void drainRunsTheJobsItsHandlersEnqueueUntilTheQueueIsEmpty() {
		this.echoMq.enqueue("countdown", 3);

		DrainResult drained = this.queues.drain("countdown");

		assertThat(drained.ran()).isEqualTo(4);
		assertThat(this.mailer.counted).containsExactly(3, 2, 1, 0);
		assertThat(this.queues).queue("countdown").isDrained();
	}

	@Test
	void aScheduleFiredOnDemandEnqueuesAnOccurrenceTheDrainRuns() {
		ScheduleFire fire = this.queues.fireSchedule("reports", "yearly");

		assertThat(this.queues).queue("reports").hasPending(1);
		assertThat(this.queues.jobs("reports", JobState.PENDING)).extracting((job) -> job.id())
			.containsExactly(fire.id());
		assertThat(this.queues.drain("reports").completed()).isOne();
		assertThat(this.mailer.reports).containsExactly(fire.id().toString());
	}

	@Test
	void aPartitionedQueueIsCountedAndDrainedOverAllItsPartitions() {
		for (int i = 0; i < 9; i++) {
			this.echoMq.enqueue("orders", "order-" + i);
		}
		assertThat(this.queues).queue("orders").hasPending(9).hasEnqueued("\"order-8\"");
		List<String> ran = new CopyOnWriteArrayList<>();

		DrainResult drained = this.queues.drain("orders", (job, context) -> ran.add(job.payload()));

		assertThat(drained.completed()).isEqualTo(9);
		assertThat(ran).hasSize(9).contains("\"order-0\"", "\"order-8\"");
		assertThat(this.queues).queue("orders").isDrained();
	}

	@Test
	void anUnknownScheduleOrAQueueWithoutListenerIsNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.queues.fireSchedule("reports", "weekly"))
			.withMessageContaining("'weekly'")
			.withMessageContaining("'reports'");
		assertThatIllegalArgumentException().isThrownBy(() -> this.queues.drain("nobody-listens"))
			.withMessageContaining("'nobody-listens'")
			.withMessageContaining("drain(queue, handler)");
	}

}
