package io.echomq.dashboard;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A flow on the dashboard, in a real headless Chromium: from a grandchild's job page to
 * its parent and to the whole flow, the tree from the root with each job's state,
 * progress and masked result, the counts per state, and the same tree as JSON. Saves a
 * screenshot of the flow page to {@code docs/dashboard}. A batch: from a job of it to its
 * page (counts, callbacks linking to their job pages), and from its home queue's page,
 * which lists the open and sealed batches. Children of a flow cancelled from the queue
 * page and from the job page, each confirmation naming what the cancel does to the
 * parent, and the dead parent's flow page; a time just past read as now on a browser
 * whose clock lags.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.refresh=400ms",
				// named, so maintained here: its reap tick relays a cancelled child to
				// its parent
				"echomq.queues.invoice-pdf.retention.completed.count=10",
				"echomq.queues.invoice-mail.retention.completed.count=10" })
class EchoMqDashboardFlowBrowserTests extends DashboardBrowserTestSupport {

	private static final Duration LEASE = Duration.ofMinutes(1);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void aFlowIsDrawnFromAnyOfItsJobs() {
		WebDriver driver = driver();
		FlowJob root = this.template.flow(FlowSpec.job("welcome-done", "{\"email\":\"ada@example.com\"}")
			.child(FlowSpec.job("welcome-email", "{\"to\":\"ada@example.com\"}"))
			.child(FlowSpec.job("avatars", "{\"user\":\"ada\"}"))
			.child(FlowSpec.job("profile", "{\"user\":\"ada\"}").child(FlowSpec.job("crm", "{\"user\":\"ada\"}"))));
		FlowJob email = root.children().get(0);
		FlowJob avatar = root.children().get(1);
		FlowJob profile = root.children().get(2);
		FlowJob crm = profile.children().get(0);
		ClaimedJob sent = claim("welcome-email");
		assertThat(this.jobs.outcomes()
			.complete("welcome-email", sent.id(), sent.token(), null, "{\"messageId\":\"m-1041\"}")
			.isApplied()).isTrue();
		ClaimedJob drawing = claim("avatars");
		assertThat(this.jobs.outcomes().progress("avatars", drawing.id(), drawing.token(), 40).isApplied()).isTrue();

		String base = "http://localhost:" + this.port + "/echomq";
		driver.get(base + "/queues/crm/jobs/" + crm.id());
		awaitText(driver, By.id("job-parent"), "profile/" + profile.id());
		click(driver, By.id("job-flow"));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> driver.findElements(By.cssSelector("#flow-table tr.flow-job")).size() == 5);
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/crm/jobs/" + crm.id() + "/flow");
		assertThat(rows(driver, "id")).containsExactly("flow-job-" + root.id(), "flow-job-" + email.id(),
				"flow-job-" + avatar.id(), "flow-job-" + profile.id(), "flow-job-" + crm.id());
		assertThat(rows(driver, "data-state")).containsExactly("waiting", "completed", "active", "waiting", "pending");
		assertThat(rows(driver, "data-depth")).containsExactly("0", "1", "1", "1", "2");
		assertThat(text(driver, By.cssSelector("#flow-job-" + email.id() + " td.flow-result"))).isEqualTo("******");
		assertThat(text(driver, By.cssSelector("#flow-job-" + avatar.id() + " td.flow-progress"))).isEqualTo("40 %");
		assertThat(text(driver, By.cssSelector("#flow-job-" + root.id() + " td.flow-children"))).startsWith("3");
		assertThat(read(() -> driver.findElement(By.cssSelector("#flow-job-" + crm.id())).getDomAttribute("class")))
			.contains("asked");
		assertThat(text(driver, By.cssSelector("#flow-counts [data-state=waiting]"))).endsWith(" 2");
		assertThat(text(driver, By.id("flow-drawn"))).isEqualTo("5 jobs drawn of 5 known");
		assertThat(driver.getPageSource()).doesNotContain("m-1041");
		assertBadgesLabelled(driver);
		screenshot("flow");

		click(driver, By.cssSelector("#flow-job-" + crm.id() + " a.flow-parent"));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "waiting".equals(driver.findElement(By.id("job-state")).getDomAttribute("data-state")));
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/profile/jobs/" + profile.id());
		assertThat(read(() -> driver.findElements(By.id("job-parent")).size())).isEqualTo(1);

		JsonNode flow = this.client.get("/api/queues/avatars/jobs/" + avatar.id() + "/flow").json();
		assertThat(flow.get("root").asString()).isEqualTo("welcome-done/" + root.id());
		assertThat(flow.get("counts").get("waiting").asLong()).isEqualTo(2);
		assertClientError(this.client.get("/api/queues/crm/jobs/" + JobId.mint() + "/flow"), 404, "has no job");
		assertClientError(this.client.get("/api/queues/crm/jobs/JOBforged/flow"), 400, "Invalid JOB id");
	}

	@Test
	void aBatchIsShownFromItsJobsAndItsQueue() {
		WebDriver driver = driver();
		BatchJob batch = this.template.batch(BatchSpec.in("reports")
			.jobs(List.of(FlowSpec.job("render", "{\"page\":1}"), FlowSpec.job("render", "{\"page\":2}")))
			.onSuccess(FlowSpec.job("reports", "{\"publish\":true}"))
			.onDeath(FlowSpec.job("reports", "{\"alert\":true}")));
		BatchJob open = this.template.batch(BatchSpec.in("reports").onComplete(FlowSpec.job("reports", "{}")).open());
		ClaimedJob rendered = claim("render");
		assertThat(this.jobs.outcomes().complete("render", rendered.id(), rendered.token(), null, null).isApplied())
			.isTrue();
		JobId member = batch.jobs().get(0).id().equals(rendered.id()) ? batch.jobs().get(1).id()
				: batch.jobs().get(0).id();

		String base = "http://localhost:" + this.port + "/echomq";
		driver.get(base + "/queues/render/jobs/" + member);
		awaitText(driver, By.id("job-batch"), "reports/" + batch.id());
		assertThat(read(() -> driver.findElements(By.id("job-parent")).size())).isZero();
		click(driver, By.id("job-batch"));
		awaitText(driver, By.cssSelector("#batch [data-count=completed]"), "Completed 1");
		assertThat(driver.getCurrentUrl()).endsWith("/echomq/queues/reports/batches/" + batch.id());
		assertThat(read(() -> driver.findElement(By.id("batch-state")).getDomAttribute("data-state")))
			.isEqualTo("sealed");
		assertThat(text(driver, By.cssSelector("#batch [data-count=total]"))).isEqualTo("Total 2");
		assertThat(text(driver, By.cssSelector("#batch [data-count=pending]"))).isEqualTo("Pending 1");
		assertThat(text(driver, By.cssSelector("#batch-callback-success a.callback-link")))
			.isEqualTo("reports/" + batch.onSuccess().id());
		assertThat(text(driver, By.cssSelector("#batch-callback-death td.callback-fired"))).isEqualTo("not yet");
		assertThat(text(driver, By.id("batch-members"))).contains("does not list them");
		assertBadgesLabelled(driver);

		click(driver, By.cssSelector("#batch-callback-success a.callback-link"));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "waiting".equals(driver.findElement(By.id("job-state")).getDomAttribute("data-state")));

		driver.get(base + "/queues/reports");
		awaitText(driver, By.id("batches-count"), "2 batches");
		assertThat(read(() -> driver.findElements(By.cssSelector("#batch-table tr.batch"))
			.stream()
			.map((row) -> row.getDomAttribute("data-state"))
			.toList())).containsExactly("sealed", "open");
		assertThat(read(() -> driver.findElement(By.cssSelector("#batch-" + open.id() + " a.batch-link"))
			.getDomAttribute("href"))).endsWith("/echomq/queues/reports/batches/" + open.id());

		JsonNode json = this.client.get("/api/queues/reports/batches/" + batch.id()).json();
		assertThat(json.get("total").asLong()).isEqualTo(2);
		assertClientError(this.client.get("/api/queues/reports/batches/" + JobId.mint()), 404, "has no batch");
		assertClientError(this.client.get("/api/queues/reports/batches/JOBforged"), 400, "Invalid JOB id");
	}

	@Test
	void cancellingAChildSaysWhatBecomesOfItsParent() {
		WebDriver driver = driver();
		FlowJob root = this.template.flow(FlowSpec.job("invoice-done", "{\"order\":7}")
			.child(FlowSpec.job("invoice-pdf", "{\"order\":7}"))
			.child(FlowSpec.job("invoice-mail", "{\"order\":7}"), ChildFailure.IGNORE)
			.child(FlowSpec.job("invoice-pdf", "{\"order\":8}")));
		FlowJob pdf = root.children().get(0);
		FlowJob mail = root.children().get(1);
		String parent = "invoice-done/" + root.id();
		String base = "http://localhost:" + this.port + "/echomq";

		driver.get(base + "/queues/invoice-mail?state=pending");
		click(driver, By.cssSelector("#job-" + mail.id() + " button.cancel"));
		assertThat(confirm(driver)).contains("Its flow parent " + parent + " records it as failed and still runs")
			.doesNotContain("dead-lettered");
		awaitText(driver, By.id("toast"), "cancelled (it was pending)");

		// the browser's clock lags the server's by 400 ms: a job enqueued just now reads
		// as
		// enqueued now, never "in 0 s"
		ChromeDriver chromium = (ChromeDriver) driver;
		Map<String, Object> lag = chromium.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
				"(function () { var now = Date.now; Date.now = function () { return now() - 400; }; })();"));
		try {
			JobId note = this.template.enqueue("invoice-notes", "{\"order\":7}");
			driver.get(base + "/queues/invoice-notes/jobs/" + note);
			assertThat(text(driver, By.cssSelector("#timeline li[data-event=enqueued]")))
				.matches(".* \\((now|[1-9]\\d* s ago)\\)");
		}
		finally {
			chromium.executeCdpCommand("Page.removeScriptToEvaluateOnNewDocument",
					Map.of("identifier", lag.get("identifier")));
		}

		driver.get(base + "/queues/invoice-pdf/jobs/" + pdf.id());
		awaitText(driver, By.id("job-parent"), parent);
		assertBadgesLabelled(driver);
		click(driver, By.id("cancel"));
		assertThat(confirm(driver)).contains("Its flow parent " + parent + " will be dead-lettered");
		awaitText(driver, By.id("toast"), "cancelled (it was pending)");
		await().atMost(WAIT).until(() -> "dead".equals(this.inspector.row("invoice-done", root.id()).get("state")));

		driver.get(base + "/queues/invoice-done/jobs/" + root.id() + "/flow");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> "dead"
				.equals(driver.findElement(By.id("flow-job-" + root.id())).getDomAttribute("data-state")));
		assertThat(text(driver, By.cssSelector("#flow-job-" + root.id() + " td.flow-children")))
			.as("a dead parent waits for no child")
			.isEqualTo("3");
		assertThat(text(driver, By.cssSelector("#flow-job-" + root.id() + " .badge"))).isEqualTo("Dead");
		assertBadgesLabelled(driver);
	}

	private static String confirm(WebDriver driver) {
		return await().atMost(WAIT).ignoreExceptions().until(() -> {
			String question = driver.switchTo().alert().getText();
			driver.switchTo().alert().accept();
			return question;
		}, (question) -> true);
	}

	private ClaimedJob claim(String queue) {
		return this.jobs.claims().claim(queue, LEASE, 1).get(0);
	}

	private static List<String> rows(WebDriver driver, String attribute) {
		return read(() -> driver.findElements(By.cssSelector("#flow-table tr.flow-job"))
			.stream()
			.map((row) -> row.getDomAttribute(attribute))
			.toList());
	}

}
