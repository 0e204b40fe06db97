package com.example.docs;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import com.example.readme.WelcomeEmail;
import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueResult;
import io.echomq.core.JobId;
import io.echomq.schedule.ScheduleState;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The docs' snippets run as printed, in an application of their own (a key prefix of its
 * own, so the README application's listener on the shared test server never sees its
 * jobs). Snippets that need what this application lacks (a database, a web server, a
 * remote CRM) are only compiled and checked by {@code DocsSnippetsTests}.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DocsExamplesTests.Examples.class,
		properties = { "echomq.key-prefix=docs", "echomq.queues.orders.partitions=3" })
@AutoConfigureEchoMqServer
@ExtendWith(OutputCaptureExtension.class)
class DocsExamplesTests {

	@Autowired
	EchoMqOperations echoMq;

	@Autowired
	EchoMqAdmin admin;

	@Autowired
	Enqueueing enqueueing;

	@Autowired
	UniqueEnqueues uniqueEnqueues;

	@Autowired
	LaneEnqueues laneEnqueues;

	@Autowired
	PartitionedEnqueues partitionedEnqueues;

	@Autowired
	QueueControl queueControl;

	@Autowired
	RuntimeSchedules runtimeSchedules;

	@Test
	void enqueueOptionsEachMakeAJob() {
		List<JobId> ids = this.enqueueing.enqueue(new Report("daily"), new Invoice("i-1", 100),
				List.of(new Image("a.png"), new Image("b.png")));
		assertThat(ids).hasSize(5).doesNotHaveDuplicates();
	}

	@Test
	void aSecondEnqueueWithTheSameUniqueKeyIsADuplicate() {
		Invoice invoice = new Invoice("i-2", 100);
		EnqueueResult first = this.uniqueEnqueues.enqueue(invoice, new Report("r"), new DocumentChange("d"));
		EnqueueResult second = this.uniqueEnqueues.enqueue(invoice, new Report("r"), new DocumentChange("d"));
		assertThat(first.duplicate()).isFalse();
		assertThat(second.duplicate()).isTrue();
		assertThat(second.id()).isEqualTo(first.id());
	}

	@Test
	void laneAndPartitionKeysAreAccepted() {
		this.laneEnqueues.sync(new Contact("ada@acme.com"));
		this.partitionedEnqueues.enqueue(new Order("c-1"), new Report("r"));
		assertThat(this.queueControl.cancel(this.echoMq.enqueue("crm-sync", new Contact("bob@acme.com")))).isTrue();
	}

	@Test
	void aTimedPauseIsLiftedByResume() {
		this.queueControl.maintenanceWindow();
		assertThat(this.admin.isPaused("crm-sync")).isFalse();
	}

	@Test
	void declaredAndRuntimeSchedulesAreListed() {
		List<ScheduleState> all = this.runtimeSchedules.weekly(new ReportRequest(LocalDate.now()));
		assertThat(all).extracting((state) -> state.definition().name())
			.contains("weekly", "ReportSchedules.nightly", "ReportSchedules.sweep");
		assertThat(this.echoMq.schedules("reports")).extracting((state) -> state.definition().name())
			.doesNotContain("weekly");
	}

	@Test
	void theListenerGetsThePayloadAndItsContext(CapturedOutput output) {
		JobId id = this.echoMq.enqueue("welcome-email", new WelcomeEmail("ada@example.com", "Ada"));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(output).contains(id + " to ada@example.com: attempt 1 of 3"));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ Enqueueing.class, UniqueEnqueues.class, LaneEnqueues.class, PartitionedEnqueues.class, QueueControl.class,
			ReportSchedules.class, RuntimeSchedules.class, MailListener.class })
	static class Examples {

	}

}
