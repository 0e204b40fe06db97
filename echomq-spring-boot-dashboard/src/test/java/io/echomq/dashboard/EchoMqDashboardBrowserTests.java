package io.echomq.dashboard;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.ScheduleSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in a real headless Chromium against a real server with real listeners and
 * jobs: the overview's counts, a dead job opened and replayed until it completes, a queue
 * paused and resumed, the chart filling from the engine's per-minute series as jobs
 * complete; a completed job kept by its queue's retention opened, a scheduled job run now
 * and a pending job deleted; a pending job cancelled, a queue paused on every node and
 * resumed, a recurring schedule listed and triggered; a queue of four partitions with
 * lanes and flow limits: its partitions, lanes and limits shown, its jobs listed across
 * partitions and by partition, its dead job replayed in its partition, a timed pause's
 * time left; another node's listener and the job it holds, until it stops. Saves a
 * screenshot of each page to {@code docs/dashboard}.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.refresh=400ms", "spring.application.name=shop",
				"echomq.queues.invoices.retention.completed.count=10", "echomq.queues.shipments.partitions=4",
				"echomq.queues.shipments.max-active=40", "echomq.queues.shipments.rate-limit.limit=200",
				"echomq.queues.shipments.rate-limit.period=1s", "echomq.queues.shipments.lanes.max-active=1",
				"echomq.queues.shipments.lanes.rate-limit.limit=30",
				"echomq.queues.shipments.lanes.rate-limit.period=1m" })
// the chart counts every queue's failed attempts: the partitioned queue's dead job comes
// last, by name
@TestMethodOrder(MethodOrderer.MethodName.class)
class EchoMqDashboardBrowserTests extends DashboardBrowserTestSupport {

	private final TestHandler orders = new TestHandler();

	private final TestHandler shipments = new TestHandler();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@AfterEach
	void release() {
		this.orders.release();
		this.shipments.release();
	}

	@Test
	void replayADeadJobPauseAQueueAndWatchTheChart() {
		WebDriver driver = driver();
		QueueInspector inspector = new QueueInspector(this.jobs);
		this.listeners.register("orders", this.orders,
				ListenerSettings.builder().maxAttempts(1).concurrency(2).build());
		this.listeners.register("emails", (job, context) -> {
			if (job.payload().contains("bounce")) {
				throw new IllegalStateException("Mailbox full");
			}
		}, ListenerSettings.builder().concurrency(4).build());
		List<JobId> placed = this.template.enqueueAll("orders", List.of("{\"order\":1041,\"customer\":\"ada\"}",
				"{\"order\":1042,\"customer\":\"bad-customer\"}", "{\"order\":1043,\"customer\":\"grace\"}"));
		JobId dead = placed.get(1);
		this.template.enqueueAll("emails", List.of("welcome ada", "welcome grace", "receipt 1041"));
		this.template.enqueueAll("reminders", List.of("renew ada", "renew grace"));
		this.template.enqueue("reminders", "survey grace", EnqueueOptions.delayed(Duration.ofHours(1)));
		await().atMost(WAIT)
			.until(() -> inspector.stats("orders").dead() == 1
					&& inspector.stats("orders").counters().getOrDefault("completed", 0L) == 2
					&& inspector.stats("emails").counters().getOrDefault("completed", 0L) == 3);

		String base = "http://localhost:" + this.port + "/echomq";
		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-orders .count-dead"), "1");
		assertThat(text(driver, By.cssSelector("#queue-orders .total-completed"))).isEqualTo("2");
		assertThat(text(driver, By.cssSelector("#queue-reminders .count-pending"))).isEqualTo("2");
		assertThat(text(driver, By.cssSelector("#queue-reminders .count-schedule"))).isEqualTo("1");
		assertThat(text(driver, By.cssSelector("#queue-orders .listener-state"))).isEqualTo("Running");
		assertBadgesLabelled(driver);
		assertThat(text(driver, By.cssSelector("#queue-reminders .listener-state"))).isEqualTo("no listener here");
		assertThat(text(driver, By.cssSelector(".node"))).startsWith("shop ");

		click(driver, By.cssSelector("#queue-orders a.queue-link"));
		awaitText(driver, By.id("queue-name"), "orders");
		awaitText(driver, By.id("flow-none"), "No flow limits");
		click(driver, By.id("tab-dead"));
		awaitText(driver, By.cssSelector("#job-" + dead + " td.error"), "No such customer");
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/orders?state=dead");
		assertThat(text(driver, By.cssSelector("#job-" + dead + " td.payload"))).isEqualTo("******");
		assertThat(read(() -> driver.findElements(By.id("purge-dead")).size())).isEqualTo(1);
		screenshot("queue");

		click(driver, By.cssSelector("#job-" + dead + " a.job-link"));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "dead".equals(driver.findElement(By.id("job-state")).getDomAttribute("data-state")));
		assertThat(text(driver, By.id("job-error"))).contains("No such customer");
		assertThat(text(driver, By.id("job-payload"))).isEqualTo("******");
		assertThat(read(() -> driver.findElements(By.cssSelector("#timeline li"))
			.stream()
			.map((li) -> li.getDomAttribute("data-event"))
			.toList())).containsExactly("enqueued", "dead_at");
		screenshot("job");

		this.orders.heal();
		click(driver, By.id("replay"));
		awaitText(driver, By.id("toast"), "replayed");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "gone".equals(driver.findElement(By.id("job-state")).getDomAttribute("data-state")));
		assertThat(text(driver, By.id("job-gone"))).contains("completed");
		assertThat(inspector.row("orders", dead)).isEmpty();
		assertThat(inspector.stats("orders").dead()).isZero();
		assertThat(inspector.stats("orders").counters()).containsEntry("completed", 3L).containsEntry("replayed", 1L);

		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-orders .count-dead"), "0");
		QueueListenerContainer container = this.listeners.getContainer("orders");
		click(driver, By.cssSelector("button.pause[data-queue=orders]"));
		awaitText(driver, By.cssSelector("#queue-orders .listener-state"), "Paused");
		assertThat(container.isPaused()).isTrue();
		this.template.enqueueAll("orders", List.of("{\"order\":1044}", "{\"order\":1045}"));
		awaitText(driver, By.cssSelector("#queue-orders .count-pending"), "2");
		click(driver, By.cssSelector("button.resume[data-queue=orders]"));
		awaitText(driver, By.cssSelector("#queue-orders .listener-state"), "Running");
		assertThat(container.isPaused()).isFalse();
		awaitText(driver, By.cssSelector("#queue-orders .count-pending"), "0");
		awaitText(driver, By.cssSelector("#queue-orders .total-completed"), "5");
		this.template.enqueueAll("emails", List.of("receipt 1044", "receipt 1045", "shipped 1041", "bounce 1046"));
		awaitText(driver, By.cssSelector("#queue-emails .count-dead"), "1");
		await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
			WebElement chart = driver.findElement(By.id("chart"));
			assertThat(chart.getDomAttribute("data-source")).isEqualTo("engine");
			assertThat(Long.parseLong(chart.getDomAttribute("data-completed")))
				.as("every completion of orders and emails, from the engine")
				.isGreaterThanOrEqualTo(5 + 6);
			assertThat(Long.parseLong(chart.getDomAttribute("data-failed")))
				.as("the dead order's attempt and 3 attempts of the bounce")
				.isEqualTo(4);
			assertThat(chart.findElements(By.cssSelector("rect.bar-completed"))).isNotEmpty();
			assertThat(chart.findElements(By.cssSelector("rect.bar-failed"))).isNotEmpty();
		});
		screenshot("overview");
	}

	@Test
	void deleteAPendingJobRunAScheduledJobNowAndOpenACompletedJob() {
		WebDriver driver = driver();
		QueueInspector inspector = new QueueInspector(this.jobs);
		this.listeners.register("invoices", (job, context) -> context.progress(100),
				ListenerSettings.builder().concurrency(2).build());
		List<JobId> paid = this.template.enqueueAll("invoices", List.of("{\"invoice\":77}", "{\"invoice\":78}"));
		await().atMost(WAIT).until(() -> inspector.stats("invoices").completed() == 2);
		List<JobId> waiting = this.template.enqueueAll("letters", List.of("letter to ada", "letter to grace"));
		JobId later = this.template.enqueue("letters", "reminder to ada", EnqueueOptions.delayed(Duration.ofHours(2)));
		String base = "http://localhost:" + this.port + "/echomq";

		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-invoices .count-completed"), "2");
		awaitText(driver, By.cssSelector("#queue-invoices .total-completed"), "2");

		driver.get(base + "/jobs/" + paid.get(0));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "completed".equals(driver.findElement(By.id("job-state")).getDomAttribute("data-state")));
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/invoices/jobs/" + paid.get(0));
		assertThat(read(() -> driver.findElements(By.cssSelector("#timeline li"))
			.stream()
			.map((li) -> li.getDomAttribute("data-event"))
			.toList())).containsExactly("enqueued", "completed_at");
		assertThat(text(driver, By.cssSelector("dd.field[data-field=completed_at]")))
			.as("a field the engine writes is never masked")
			.matches("\\d{13}");
		assertThat(read(() -> driver.findElement(By.id("job-progress")).getDomAttribute("value"))).isEqualTo("100");
		assertThat(text(driver, By.id("job-progress-percent"))).isEqualTo("100 %");
		assertThat(read(() -> driver.findElements(By.id("delete")).size())).isEqualTo(1);
		assertThat(read(() -> driver.findElements(By.id("replay")).size())).isZero();
		screenshot("completed-job");

		driver.get(base + "/queues/letters?state=schedule");
		awaitText(driver, By.cssSelector("#job-" + later + " td.payload"), "******");
		assertThat(read(() -> driver.findElements(By.cssSelector("#job-" + later + " button.run")).size()))
			.isEqualTo(1);
		screenshot("queue-scheduled");
		click(driver, By.cssSelector("#job-" + later + " button.run"));
		awaitText(driver, By.id("toast"), "moved to pending");
		awaitText(driver, By.cssSelector("#tab-schedule .count-schedule"), "0");
		awaitText(driver, By.cssSelector("#tab-pending .count-pending"), "3");
		assertThat(inspector.row("letters", later)).containsEntry("state", "pending");

		click(driver, By.id("tab-pending"));
		awaitText(driver, By.cssSelector("#job-" + waiting.get(0) + " td.payload"), "******");
		click(driver, By.cssSelector("#job-" + waiting.get(0) + " button.delete"));
		acceptConfirmation(driver);
		awaitText(driver, By.id("toast"), "deleted (it was pending)");
		awaitText(driver, By.cssSelector("#tab-pending .count-pending"), "2");
		assertThat(inspector.row("letters", waiting.get(0))).isEmpty();
		assertThat(inspector.row("letters", waiting.get(1))).containsEntry("state", "pending");
		assertThat(inspector.stats("letters").counters()).containsEntry("deleted", 1L).containsEntry("promoted", 1L);
	}

	@Test
	void cancelAPendingJobPauseAQueueEverywhereAndTriggerASchedule() {
		WebDriver driver = driver();
		QueueInspector inspector = new QueueInspector(this.jobs);
		List<JobId> parcels = this.template.enqueueAll("parcels", List.of("parcel to ada", "parcel to grace"));
		JobId later = this.template.enqueue("parcels", "parcel to linus", EnqueueOptions.delayed(Duration.ofHours(1)));
		this.template.schedule("parcels", "nightly-manifest",
				ScheduleSpec.cron("0 0 2 * * *", ZoneId.of("Europe/Paris")), "manifest");
		String base = "http://localhost:" + this.port + "/echomq";

		driver.get(base + "/queues/parcels?state=pending");
		awaitText(driver, By.cssSelector("#job-" + parcels.get(0) + " td.payload"), "******");
		click(driver, By.cssSelector("#job-" + parcels.get(0) + " button.cancel"));
		acceptConfirmation(driver);
		awaitText(driver, By.id("toast"), "cancelled (it was pending)");
		awaitText(driver, By.cssSelector("#tab-pending .count-pending"), "1");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> driver.findElements(By.id("job-" + parcels.get(0))).isEmpty());
		assertThat(inspector.row("parcels", parcels.get(0))).isEmpty();
		assertThat(inspector.row("parcels", parcels.get(1))).containsEntry("state", "pending");
		click(driver, By.id("tab-schedule"));
		click(driver, By.cssSelector("#job-" + later + " button.cancel"));
		acceptConfirmation(driver);
		awaitText(driver, By.id("toast"), "Job " + later + " cancelled (it was scheduled)");
		assertThat(inspector.row("parcels", later)).isEmpty();

		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-parcels .cluster-state"), "claiming");
		click(driver, By.cssSelector("button.cluster-pause[data-queue=parcels]"));
		acceptConfirmation(driver);
		awaitText(driver, By.cssSelector("#queue-parcels .cluster-state"), "Paused (cluster)");
		assertThat(this.admin.isPaused("parcels")).isTrue();
		assertBadgesLabelled(driver);
		screenshot("overview-paused");
		click(driver, By.cssSelector("#queue-parcels a.queue-link"));
		awaitText(driver, By.cssSelector("#listener .cluster-state"), "Paused (cluster)");
		click(driver, By.cssSelector("button.cluster-resume[data-queue=parcels]"));
		awaitText(driver, By.cssSelector("#listener .cluster-state"), "claiming");
		assertThat(this.admin.isPaused("parcels")).isFalse();

		click(driver, By.id("nav-schedules"));
		By row = By.cssSelector("#schedule-parcels-nightly-manifest");
		awaitText(driver, By.cssSelector("#schedule-parcels-nightly-manifest .schedule-name"), "nightly-manifest");
		assertThat(text(driver, By.cssSelector("#schedule-parcels-nightly-manifest .schedule-spec")))
			.contains("cron 0 0 2 * * * Europe/Paris");
		assertThat(text(driver, By.cssSelector("#schedule-parcels-nightly-manifest .last-fire"))).isEqualTo("never");
		assertThat(text(driver, By.cssSelector("#schedule-parcels-nightly-manifest .next-fire")))
			.as("a cron's next fire on its zone's clock, zone named")
			.matches("\\d{4}-\\d\\d-\\d\\d 02:00:00 Europe/Paris \\(in .*\\)");
		assertThat(read(() -> driver.findElement(row).findElements(By.cssSelector("button.trigger")).size()))
			.isEqualTo(1);
		screenshot("schedules");
		click(driver, By.cssSelector("#schedule-parcels-nightly-manifest button.trigger"));
		awaitText(driver, By.id("toast"), "Schedule 'nightly-manifest' triggered");
		assertThat(inspector.stats("parcels").pending()).isEqualTo(2);
		awaitText(driver, By.cssSelector("#schedule-parcels-nightly-manifest .last-fire"), " Europe/Paris");
		assertThat(text(driver, By.cssSelector("#schedule-parcels-nightly-manifest .last-fire")))
			.as("the trigger is the last fire")
			.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d Europe/Paris");
	}

	@Test
	void watchAPartitionedQueueItsLanesAndItsLimits() {
		WebDriver driver = driver();
		QueueInspector inspector = new QueueInspector(this.jobs);
		QueuePartitions partitions = this.template.getPartitioning().forQueue("shipments");
		assertThat(partitions.count()).isEqualTo(4);
		this.listeners.register("shipments", this.shipments,
				ListenerSettings.builder().maxAttempts(1).concurrency(4).build());
		List<JobId> acme = this.template.enqueueAll("shipments",
				List.of("{\"hold\":\"acme-1\"}", "{\"hold\":\"acme-2\"}", "{\"hold\":\"acme-3\"}"),
				EnqueueOptions.defaults().withLane("acme"));
		this.template.enqueueAll("shipments", List.of("{\"hold\":\"globex-1\"}", "{\"hold\":\"globex-2\"}"),
				EnqueueOptions.defaults().withLane("globex"));
		List<JobId> plain = this.template.enqueueAll("shipments",
				List.of("{\"parcel\":1}", "{\"parcel\":2}", "{\"parcel\":3}", "{\"parcel\":\"bad-address\"}"));
		JobId dead = plain.get(3);
		String deadPartition = partitions.nameOf(dead);
		await().atMost(WAIT).until(() -> {
			PartitionedStats stats = PartitionedStats.read(inspector, partitions);
			return stats.total().dead() == 1 && stats.total().active() == 2
					&& stats.total().counters().getOrDefault("completed", 0L) == 3;
		});

		String base = "http://localhost:" + this.port + "/echomq";
		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-shipments .count-dead"), "1");
		assertThat(text(driver, By.cssSelector("#queue-shipments .badge.partitions"))).isEqualTo("4 partitions");
		assertThat(text(driver, By.cssSelector("#queue-shipments .count-active"))).isEqualTo("2");
		assertThat(read(() -> driver.findElements(By.cssSelector("tr.partition-row[id^=partition-shipments-]"))
			.stream()
			.map((row) -> row.getDomAttribute("data-partition"))
			.toList())).isEqualTo(partitions.names());
		assertThat(text(driver, By.cssSelector("#partition-shipments-" + dead.partition() + " .count-dead")))
			.isEqualTo("1");

		click(driver, By.cssSelector("#queue-shipments a.queue-link"));
		awaitText(driver, By.id("limit-queue"), "at most 40 active, 200 started per 1 s");
		assertThat(text(driver, By.id("limit-partition"))).isEqualTo("at most 10 active, 50 started per 1 s");
		assertThat(text(driver, By.id("limit-lane"))).isEqualTo("at most 1 active, 30 started per 1 min");
		// stored at run time through the form: the configured values again, so that the
		// jobs run as before
		type(driver, By.id("limit-rate"), "200");
		type(driver, By.id("limit-period"), "1s");
		type(driver, By.id("limit-concurrency"), "4");
		click(driver, By.id("limits-store"));
		awaitText(driver, By.id("limit-stored"), "queue: 200 started per 1 s; concurrency 4 per listener");
		assertThat(text(driver, By.id("limit-queue"))).isEqualTo("at most 40 active, 200 started per 1 s");
		assertThat(this.admin.limits("shipments").storedConcurrency()).isEqualTo(4);
		assertThat(read(() -> driver.findElement(By.id("limit-rate")).getDomProperty("value"))).isEmpty();
		type(driver, By.id("limit-lane-rate"), "30");
		click(driver, By.id("limits-store"));
		awaitText(driver, By.id("toast"), "lane rate limit and lane period go together");
		type(driver, By.id("limit-lane-rate"), "");
		click(driver, By.id("limits-reset"));
		await().atMost(WAIT).until(() -> driver.findElements(By.id("limit-stored")).isEmpty());
		assertThat(this.admin.limits("shipments").storedConcurrency()).isNull();
		awaitText(driver, By.cssSelector("#lane-acme .lane-pending"), "2");
		assertThat(text(driver, By.cssSelector("#lane-globex .lane-pending"))).isEqualTo("1");
		assertThat(text(driver, By.id("lanes-title"))).isEqualTo("Lanes with work (2)");
		awaitText(driver, By.id("lane-note"), "waiting in lanes");
		awaitText(driver, By.cssSelector("#tab-pending .count-pending"), "3");
		await().atMost(WAIT)
			.ignoreExceptions()
			.untilAsserted(() -> assertThat(driver.findElements(By.cssSelector("#jobs tr.job-row"))
				.stream()
				.map((row) -> row.findElement(By.cssSelector("td.lane")).getText())
				.toList()).as("the pending count's lane jobs, listed with their lane")
				.containsExactlyInAnyOrder("acme", "acme", "globex"));
		assertThat(text(driver, By.cssSelector("#job-" + acme.get(2) + " td.lane"))).isEqualTo("acme");
		assertThat(read(() -> driver.findElements(By.cssSelector("#partition-table tr.partition-row")).size()))
			.isEqualTo(4);
		assertThat(text(driver, By.cssSelector("#partition-" + dead.partition() + " .partition-name")))
			.isEqualTo(deadPartition);
		screenshot("queue-partitioned");

		click(driver, By.id("tab-dead"));
		awaitText(driver, By.cssSelector("#job-" + dead + " td.partition"), deadPartition);
		select(driver, Integer.toString((dead.partition() + 1) % 4));
		awaitText(driver, By.cssSelector("#jobs .empty"), "No dead jobs.");
		assertThat(driver.getCurrentUrl()).endsWith("partition=" + (dead.partition() + 1) % 4);
		select(driver, Integer.toString(dead.partition()));
		awaitText(driver, By.cssSelector("#job-" + dead + " td.error"), "No such customer");
		this.shipments.heal();
		click(driver, By.id("replay-all"));
		awaitText(driver, By.id("toast"), "Replayed 1 dead job");
		await().atMost(WAIT).until(() -> inspector.row(deadPartition, dead).isEmpty());
		assertThat(PartitionedStats.read(inspector, partitions).total().counters()).containsEntry("replayed", 1L);

		driver.get(base + "/jobs/" + acme.get(2));
		awaitText(driver, By.id("job-partition"), partitions.nameOf(acme.get(2)));
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/shipments/jobs/" + acme.get(2));

		this.admin.pause("shipments", Duration.ofMinutes(10));
		driver.get(base + "/queues/shipments");
		awaitText(driver, By.cssSelector("#limit-pause .cluster-state"), "Paused (cluster)");
		assertThat(text(driver, By.cssSelector("#limit-pause .pause-left")))
			.matches("(9 min \\d\\d s|10 min 00 s) left");
		click(driver, By.cssSelector("#listener button.cluster-resume[data-queue=shipments]"));
		awaitText(driver, By.cssSelector("#listener .cluster-state"), "claiming");
		assertThat(partitions.names()).allSatisfy((name) -> assertThat(this.jobs.admin().pauseLeft(name)).isZero());
	}

	private static void select(WebDriver driver, String partition) {
		await().atMost(WAIT).ignoreExceptions().until(() -> {
			new Select(driver.findElement(By.id("partition"))).selectByValue(partition);
			return true;
		});
	}

	@Test
	void anotherNodesListenerAndTheJobItHoldsShow() {
		WebDriver driver = driver();
		TestHandler held = new TestHandler();
		String base = "http://localhost:" + this.port + "/echomq";
		By otherListener = By.cssSelector("#queue-deliveries td.other-nodes .node-listener");
		try (OtherNode warehouse = OtherNode.start("warehouse", this.jobs.keyspace().prefix())) {
			String b = warehouse.node().name();
			warehouse.listeners().register("deliveries", held, ListenerSettings.builder().concurrency(3).build());
			JobId job = this.template.enqueue("deliveries", "hold shipment 12");
			await().atMost(WAIT).until(() -> new QueueInspector(this.jobs).stats("deliveries").active() == 1);

			driver.get(base);
			awaitText(driver, otherListener, b);
			assertThat(read(() -> driver.findElement(otherListener).getDomAttribute("data-concurrency")))
				.isEqualTo("3");
			assertThat(text(driver, By.cssSelector("#queue-deliveries .listener-state"))).isEqualTo("no listener here");

			click(driver, By.cssSelector("#queue-deliveries a.queue-link"));
			awaitText(driver, By.cssSelector("#other-nodes .node-row .node-name"), b);
			click(driver, By.id("tab-active"));
			awaitText(driver, By.cssSelector("#job-" + job + " td.owner"), b);
			screenshot("queue-active-nodes");

			click(driver, By.cssSelector("#job-" + job + " a.job-link"));
			awaitText(driver, By.id("job-owner"), "Lease held by " + b);
			held.release();
			await().atMost(WAIT).until(() -> new QueueInspector(this.jobs).stats("deliveries").active() == 0);
		}
		finally {
			held.release();
		}
		driver.get(base);
		awaitText(driver, By.cssSelector("#queue-deliveries td.other-nodes"), "none");
		assertThat(read(() -> driver.findElements(otherListener).size())).isZero();
	}

	private static void acceptConfirmation(WebDriver driver) {
		await().atMost(WAIT).ignoreExceptions().until(() -> {
			driver.switchTo().alert().accept();
			return true;
		});
	}

}
