package io.echomq.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.Retention;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.dashboard.DashboardClient.Response;
import io.echomq.dashboard.web.DashboardWriteGuard;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.ScheduleSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard over real HTTP, without Spring Security, on a real server with real
 * listeners: what each page and API shows, bad input, and every action with and without
 * its CSRF token.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class EchoMqDashboardWebTests extends DashboardWebTestSupport {

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void pagesAndApiShouldShowEveryLocation() {
		String worked = DashboardTestApplication.unique("worked");
		TestHandler handler = listen(worked);
		List<JobId> ids = this.template.enqueueAll(worked, List.of("ok", "bad", "hold"));
		await().atMost(WAIT)
			.until(() -> stats(worked).dead() == 1 && stats(worked).active() == 1
					&& stats(worked).counters().getOrDefault("completed", 0L) == 1);
		String idle = DashboardTestApplication.unique("idle");
		List<JobId> pending = this.template.enqueueAll(idle, List.of("p1", "p2", "p3"));
		JobId scheduled = this.template.enqueue(idle, "later", EnqueueOptions.delayed(Duration.ofMinutes(10)));

		JsonNode overview = this.client.get("/api/overview").json();
		JsonNode workedQueue = queue(overview, worked);
		assertThat(workedQueue.get("counts").get("dead").asLong()).isEqualTo(1);
		assertThat(workedQueue.get("counts").get("active").asLong()).isEqualTo(1);
		assertThat(workedQueue.get("counters").get("completed").asLong()).isEqualTo(1);
		assertThat(workedQueue.get("listener").get("running").asBoolean()).isTrue();
		assertThat(workedQueue.get("listener").get("paused").asBoolean()).isFalse();
		assertThat(workedQueue.get("listener").get("concurrency").asInt()).isEqualTo(2);
		assertThat(workedQueue.get("listener").get("node").asString()).contains("@");
		JsonNode idleQueue = queue(overview, idle);
		assertThat(idleQueue.get("counts").get("pending").asLong()).isEqualTo(3);
		assertThat(idleQueue.get("counts").get("schedule").asLong()).isEqualTo(1);
		assertThat(idleQueue.get("listener").isNull()).isTrue();
		assertThat(overview.get("historyKept").asBoolean()).isTrue();
		JsonNode history = this.client.get("/api/history?minutes=5").json();
		assertThat(history.get("kept").asBoolean()).isTrue();
		long completedLastMinutes = 0;
		long failedLastMinutes = 0;
		for (JsonNode minute : history.get("queues").get(worked)) {
			completedLastMinutes += minute.get("completed").asLong();
			failedLastMinutes += minute.get("failed").asLong();
		}
		assertThat(completedLastMinutes).isEqualTo(1);
		assertThat(failedLastMinutes).isEqualTo(1);

		JsonNode dead = this.client.get("/api/queues/" + worked + "/jobs?state=dead").json();
		assertThat(dead.get("total").asLong()).isEqualTo(1);
		JsonNode deadJob = dead.get("jobs").get(0);
		assertThat(deadJob.get("id").asString()).isEqualTo(ids.get(1).toString());
		assertThat(deadJob.get("lastError").asString()).contains("No such customer");
		assertThat(deadJob.get("payload").asString()).isEqualTo("******");
		assertThat(deadJob.get("at").asLong()).isPositive();
		JsonNode active = this.client.get("/api/queues/" + worked + "/jobs?state=active").json().get("jobs").get(0);
		assertThat(active.get("id").asString()).isEqualTo(ids.get(2).toString());
		assertThat(active.get("at").asLong()).isGreaterThan(Instant.now().toEpochMilli());

		JsonNode pendingPage = this.client.get("/api/queues/" + idle + "/jobs?state=pending&limit=2").json();
		assertThat(pendingPage.get("total").asLong()).isEqualTo(3);
		assertThat(ids(pendingPage)).containsExactly(pending.get(2).toString(), pending.get(1).toString());
		assertThat(ids(this.client.get("/api/queues/" + idle + "/jobs?state=pending&offset=2&limit=2").json()))
			.containsExactly(pending.get(0).toString());
		JsonNode schedule = this.client.get("/api/queues/" + idle + "/jobs?state=schedule").json().get("jobs").get(0);
		assertThat(schedule.get("id").asString()).isEqualTo(scheduled.toString());
		assertThat(schedule.get("at").asLong()).isGreaterThan(Instant.now().plus(Duration.ofMinutes(9)).toEpochMilli());

		this.jobs.executor()
			.getTemplate()
			.opsForHash()
			.put(this.jobs.keyspace().jobKey(worked, ids.get(1)), "tenant", "acme");
		JsonNode job = this.client.get("/api/queues/" + worked + "/jobs/" + ids.get(1)).json();
		assertThat(job.get("state").asString()).isEqualTo("dead");
		assertThat(job.get("attempts").asLong()).isEqualTo(1);
		assertThat(job.get("maxAttempts").asLong()).as("the row's budget, set at enqueue").isEqualTo(3);
		assertThat(job.get("lastError").asString()).contains("No such customer");
		assertThat(job.get("payload").asString()).isEqualTo("******");
		assertThat(job.get("fields").has("payload")).isFalse();
		assertThat(job.get("fields").get("state").asString()).isEqualTo("dead");
		assertThat(job.get("fields").get("attempts").asString()).isEqualTo("1");
		assertThat(job.get("fields").get("tenant").asString()).as("a field of the application's").isEqualTo("******");
		List<String> events = new ArrayList<>();
		job.get("timeline").forEach((entry) -> events.add(entry.get("event").asString()));
		assertThat(events).containsExactly("enqueued", "dead_at");
		assertThat(this.client.get("/api/queues/" + idle + "/jobs/" + scheduled)
			.json()
			.get("timeline")
			.get(1)
			.get("label")
			.asString()).isEqualTo("Runs at");

		assertThat(this.client.get("/api/jobs/" + ids.get(1)).json().get("queue").asString()).isEqualTo(worked);
		Response find = this.client.get("/jobs/" + ids.get(1));
		assertThat(find.status()).isEqualTo(303);
		assertThat(find.headers().firstValue("Location")).hasValue("/echomq/queues/" + worked + "/jobs/" + ids.get(1));

		Response page = this.client.open();
		assertThat(page.status()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
				(csp) -> assertThat(csp).contains("script-src 'self'").contains("frame-ancestors 'none'"));
		assertThat(page.headers().firstValue("Set-Cookie"))
			.hasValueSatisfying((cookie) -> assertThat(cookie).startsWith(DashboardWriteGuard.COOKIE + "=")
				.contains("HttpOnly")
				.contains("SameSite=Strict")
				.contains("Path=/echomq"));
		assertThat(this.client.meta("kind")).isEqualTo("overview");
		assertThat(this.client.meta("can-write")).isEqualTo("true");
		assertThat(this.client.meta("csrf-token")).hasSize(43);
		assertThat(this.client.meta("app-csrf-header")).isEmpty();
		assertThat(page.body()).doesNotContain("http://", "https://");
		assertThat(this.client.get("/").status()).isEqualTo(200);
		assertThat(this.client.get("/queues/" + worked).body())
			.contains("<meta name=\"echomq-kind\" content=\"queue\">");
		assertThat(this.client.get("/queues/" + worked + "/jobs/" + ids.get(1)).body())
			.contains("<meta name=\"echomq-kind\" content=\"job\">");
		Response script = this.client.get("/assets/app.js");
		assertThat(script.status()).isEqualTo(200);
		assertThat(script.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/javascript"));
		assertThat(script.body().replace("http://www.w3.org/2000/svg", "")).as("nothing loaded from elsewhere")
			.doesNotContain("innerHTML", "http://", "https://", "eval(");
		assertThat(this.client.get("/assets/app.css").status()).isEqualTo(200);
		assertThat(this.client.get("/assets/index.html").status()).isEqualTo(404);
		assertThat(this.client.get("/assets/..%2Fapp.js").status()).isBetween(400, 404);
		handler.release();
	}

	@Test
	void badInputShouldAnswerClientErrorsWithAMessage() {
		String queue = DashboardTestApplication.unique("input");
		listen(queue);
		JobId dead = deadJob(queue);
		String api = "/api/queues/" + queue;

		assertClientError(this.client.get("/api/queues/bad%7Bname%7D/jobs"), 400, "Invalid EchoMQ queue name");
		assertClientError(this.client.get("/api/queues/" + "q".repeat(65)), 400, "must be 1-64 characters");
		assertClientError(this.client.get("/api/queues/nowhere-to-be-seen"), 404, "not known here");
		assertClientError(this.client.get("/api/queues/nowhere-to-be-seen/jobs?state=dead"), 404, "not known here");
		assertClientError(this.client.get(api + "/jobs?state=finished"), 400,
				"state must be one of pending, active, schedule, dead, quarantine, completed, waiting; was 'finished'");
		assertClientError(this.client.get(api + "/jobs?state=dead&offset=-1"), 400, "offset must not be negative");
		assertClientError(this.client.get(api + "/jobs?state=dead&offset=x"), 400, "offset must be a whole number");
		assertClientError(this.client.get(api + "/jobs?state=dead&limit=0"), 400, "limit must be between 1 and 100");
		assertClientError(this.client.get(api + "/jobs?state=dead&limit=101"), 400, "limit must be between 1 and 100");
		assertClientError(this.client.get(api + "/jobs?state=dead&offset=1"), 400,
				"offset 1 is past the last job: dead holds 1");
		assertClientError(this.client.get(api + "/jobs/JOBforged"), 400, "Invalid JOB id");
		assertClientError(this.client.get(api + "/jobs/" + JobId.mint()), 404, "has no job");
		assertClientError(this.client.get("/api/jobs/" + JobId.mint()), 404, "No known queue has a job");
		assertClientError(this.client.get("/api/history?minutes=0"), 400, "minutes must be between 1 and 60");
		assertClientError(this.client.get(api + "/pause"), 404, "actions POST");
		assertClientError(this.client.get("/api/nothing"), 404, "No such dashboard resource");

		Response badPage = this.client.get("/queues/a%3Cb%3E");
		assertThat(badPage.status()).isEqualTo(400);
		assertThat(badPage.body()).contains("Invalid EchoMQ queue name &#39;a&lt;b&gt;&#39;").doesNotContain("a<b>");
		assertThat(this.client.get("/queues/nowhere-to-be-seen").status()).isEqualTo(404);
		assertThat(this.client.get("/jobs/garbage").status()).isEqualTo(400);
		assertThat(this.client.get("/queues/" + queue + "/jobs/garbage").status()).isEqualTo(400);
		assertThat(this.client.get("/jobs/" + JobId.mint()).status()).isEqualTo(404);
		assertThat(this.client.get("/no/such/page").status()).isEqualTo(404);

		this.client.open();
		assertClientError(this.client.post(api + "/jobs/JOBforged/replay"), 400, "Invalid JOB id");
		assertClientError(this.client.post("/api/queues/bad%7Bname%7D/dead/purge"), 400, "Invalid EchoMQ queue name");
		assertClientError(this.client.post("/api/queues/nowhere-to-be-seen/dead/purge"), 404, "not known here");
		assertClientError(this.client.post(api + "/jobs/" + dead + "/replay-now"), 404, "No such dashboard resource");
		assertThat(this.inspector.row(queue, dead)).containsEntry("state", "dead");
		assertThat(stats(queue).dead()).isEqualTo(1);

		this.jobs.executor().getTemplate().opsForHash().put(this.jobs.keyspace().jobKey(queue, dead), "attempts", "x1");
		assertClientError(this.client.post(api + "/jobs/" + dead + "/replay"), 409, "its row is malformed");
		assertClientError(this.client.post(api + "/jobs/" + dead + "/delete"), 409, "its row is malformed");
		assertThat(this.inspector.row(queue, dead)).containsEntry("state", "dead").containsEntry("attempts", "x1");
		assertThat(stats(queue).dead()).isEqualTo(1);
		assertThat(this.client.get(api + "/jobs/" + dead).json().get("fields").get("attempts").asString())
			.isEqualTo("x1");
	}

	@Test
	void forgedActionsShouldBeRefusedAndWriteNothing() {
		String queue = DashboardTestApplication.unique("forged");
		listen(queue);
		JobId dead = deadJob(queue);
		String replay = "/api/queues/" + queue + "/jobs/" + dead + "/replay";
		this.client.open();
		String token = this.client.meta("csrf-token");
		String origin = "http://localhost:" + this.port;

		assertClientError(this.client.post(replay, Map.of("Origin", origin), ""), 403, "Missing CSRF token");
		String header = DashboardWriteGuard.HEADER;
		assertClientError(this.client.post(replay, Map.of(header, "x".repeat(43), "Origin", origin), ""), 403,
				"Invalid CSRF token");
		assertClientError(this.client.post(replay, Map.of(header, token, "Origin", "https://evil.example"), ""), 403,
				"Cross-origin action refused");
		assertClientError(this.client.post(replay, Map.of(header, token, "Referer", "https://evil.example/page"), ""),
				403, "Cross-origin action refused");
		assertClientError(this.client.post(replay, Map.of(header, token, "Origin", "null"), ""), 403,
				"Cross-origin action refused");
		assertClientError(this.client.post(replay,
				Map.of("Content-Type", "application/x-www-form-urlencoded", "Origin", origin), "_csrf=" + token), 403,
				"Missing CSRF token");
		DashboardClient stranger = new DashboardClient(this.port, "/echomq");
		stranger.open();
		assertClientError(stranger.post(replay, Map.of(DashboardWriteGuard.HEADER, token, "Origin", origin), ""), 403,
				"Invalid CSRF token");
		assertClientError(new DashboardClient(this.port, "/echomq").post(replay,
				Map.of(DashboardWriteGuard.HEADER, token, "Origin", origin), ""), 403, "Invalid CSRF token");
		assertClientError(this.client.post("/api/queues/" + queue + "/pause", Map.of("Origin", origin), ""), 403,
				"Missing CSRF token");
		assertClientError(this.client.post("/api/queues/" + queue + "/dead/purge", Map.of("Origin", origin), ""), 403,
				"Missing CSRF token");
		assertClientError(
				this.client.post("/api/queues/" + queue + "/jobs/" + dead + "/cancel", Map.of("Origin", origin), ""),
				403, "Missing CSRF token");
		assertClientError(
				this.client.post("/api/queues/" + queue + "/jobs/" + dead + "/cancel",
						Map.of(header, token, "Origin", "https://evil.example"), ""),
				403, "Cross-origin action refused");
		assertClientError(this.client.post("/api/queues/" + queue + "/cluster/pause", Map.of("Origin", origin), ""),
				403, "Missing CSRF token");
		assertClientError(stranger.post("/api/queues/" + queue + "/cluster/pause",
				Map.of(DashboardWriteGuard.HEADER, token, "Origin", origin), ""), 403, "Invalid CSRF token");
		this.template.schedule(queue, "forged-tick", ScheduleSpec.every(Duration.ofDays(1)), "tick");
		long pending = stats(queue).pending();
		assertClientError(
				this.client.post("/api/schedules/" + queue + "/forged-tick/trigger", Map.of("Origin", origin), ""), 403,
				"Missing CSRF token");
		assertThat(this.admin.isPaused(queue)).isFalse();
		assertThat(stats(queue).pending()).isEqualTo(pending);

		assertThat(this.inspector.row(queue, dead)).containsEntry("state", "dead");
		assertThat(stats(queue).dead()).isEqualTo(1);
		assertThat(stats(queue).counters()).doesNotContainKeys("replayed", "purged");
		assertThat(this.listeners.getContainer(queue).isPaused()).isFalse();
		Response same = this.client.post(replay, Map.of(DashboardWriteGuard.HEADER, token), "");
		assertThat(same.status()).as("no Origin or Referer, as from a script outside a browser").isEqualTo(200);
	}

	@Test
	void actionsShouldChangeOnlyWhatTheyName() {
		String queue = DashboardTestApplication.unique("acts");
		TestHandler handler = listen(queue);
		JobId first = deadJob(queue);
		this.client.open();
		String api = "/api/queues/" + queue;

		handler.heal();
		Response replayed = this.client.post(api + "/jobs/" + first + "/replay");
		assertThat(replayed.status()).as("%s", replayed).isEqualTo(200);
		assertThat(replayed.message()).contains("replayed").contains("fresh budget of 1 attempt");
		await().atMost(WAIT).until(() -> stats(queue).dead() == 0 && this.inspector.row(queue, first).isEmpty());
		assertThat(stats(queue).counters()).containsEntry("replayed", 1L).containsEntry("completed", 1L);
		assertClientError(this.client.post(api + "/jobs/" + first + "/replay"), 404, "has no job");

		QueueListenerContainer container = this.listeners.getContainer(queue);
		assertThat(this.client.post(api + "/pause").message()).contains("paused");
		assertThat(container.isPaused()).isTrue();
		JsonNode listener = queue(this.client.get("/api/overview").json(), queue).get("listener");
		assertThat(listener.get("paused").asBoolean()).isTrue();
		JobId waiting = this.template.enqueue(queue, "waiting");
		assertClientError(this.client.post(api + "/jobs/" + waiting + "/replay"), 409, "is pending, not dead");
		assertClientError(this.client.post(api + "/jobs/" + waiting + "/run"), 409,
				"is pending, not scheduled: only scheduled jobs can be run now");
		assertThat(this.inspector.row(queue, waiting)).containsEntry("state", "pending");
		JobId doomed = this.template.enqueue(queue, "doomed");
		Response gone = this.client.post(api + "/jobs/" + doomed + "/delete");
		assertThat(gone.status()).as("%s", gone).isEqualTo(200);
		assertThat(gone.message()).contains("it was pending");
		assertThat(this.inspector.row(queue, doomed)).isEmpty();
		assertClientError(this.client.post(api + "/jobs/" + doomed + "/delete"), 404, "has no job");
		JobId later = this.template.enqueue(queue, "later", EnqueueOptions.delayed(Duration.ofHours(1)));
		Response ran = this.client.post(api + "/jobs/" + later + "/run");
		assertThat(ran.status()).as("%s", ran).isEqualTo(200);
		assertThat(ran.message()).contains("moved to pending");
		assertThat(this.inspector.row(queue, later)).containsEntry("state", "pending");
		assertThat(this.client.post(api + "/resume").message()).contains("resumed");
		assertThat(container.isPaused()).isFalse();
		await().atMost(WAIT)
			.until(() -> this.inspector.row(queue, waiting).isEmpty() && this.inspector.row(queue, later).isEmpty());
		JobId held = this.template.enqueue(queue, "hold");
		await().atMost(WAIT).until(() -> "active".equals(this.inspector.row(queue, held).get("state")));
		assertClientError(this.client.post(api + "/jobs/" + held + "/delete"), 409, "is active");
		assertThat(this.inspector.row(queue, held)).containsEntry("state", "active");
		handler.release();

		String idle = DashboardTestApplication.unique("no-listener");
		this.template.enqueue(idle, "x");
		assertClientError(this.client.post("/api/queues/" + idle + "/pause"), 404, "has no listener on");

		String graveyard = DashboardTestApplication.unique("graveyard");
		TestHandler failing = listen(graveyard);
		List<JobId> dead = this.template.enqueueAll(graveyard, List.of("bad-1", "bad-2", "bad-3", "bad-4"));
		await().atMost(WAIT).until(() -> stats(graveyard).dead() == 4);
		Response deleted = this.client.post("/api/queues/" + graveyard + "/jobs/" + dead.get(0) + "/delete");
		assertThat(deleted.status()).as("%s", deleted).isEqualTo(200);
		assertThat(this.inspector.row(graveyard, dead.get(0))).isEmpty();
		assertThat(stats(graveyard).dead()).isEqualTo(3);
		assertThat(stats(graveyard).counters()).containsEntry("deleted", 1L);
		assertThat(this.inspector.row(graveyard, dead.get(1))).containsEntry("state", "dead");

		this.client.post("/api/queues/" + graveyard + "/pause");
		Response all = this.client.post("/api/queues/" + graveyard + "/dead/replay");
		assertThat(all.json().get("count").asLong()).isEqualTo(3);
		assertThat(all.message()).isEqualTo("Replayed 3 dead jobs");
		assertThat(stats(graveyard).dead()).isZero();
		assertThat(stats(graveyard).pending()).isEqualTo(3);
		this.client.post("/api/queues/" + graveyard + "/resume");
		await().atMost(WAIT).until(() -> stats(graveyard).dead() == 3);
		Response purged = this.client.post("/api/queues/" + graveyard + "/dead/purge");
		assertThat(purged.json().get("count").asLong()).isEqualTo(3);
		assertThat(stats(graveyard).dead()).isZero();
		dead.forEach((id) -> assertThat(this.inspector.row(graveyard, id)).isEmpty());
		failing.release();
	}

	@Test
	void jobShouldCarryProgressAndResultSanitizedLikeThePayload() {
		String queue = DashboardTestApplication.unique("reports");
		this.jobs.upkeep().retain(queue, Retention.ofCount(10), Retention.NONE);
		JobId id = this.template.enqueue(queue, "report");
		ClaimedJob claimed = this.jobs.claims().claim(queue, Duration.ofSeconds(30), 1).get(0);
		String api = "/api/queues/" + queue + "/jobs/" + id;
		JsonNode fresh = this.client.get(api).json();
		assertThat(fresh.get("progress").isNull()).isTrue();
		assertThat(fresh.get("progressData").isNull()).isTrue();
		assertThat(fresh.get("result").isNull()).isTrue();

		assertThat(this.jobs.outcomes().progress(queue, id, claimed.token(), 40).isApplied()).isTrue();
		assertThat(this.jobs.outcomes().progress(queue, id, claimed.token(), "{\"step\":\"copy\"}").isApplied())
			.isTrue();
		JsonNode running = this.client.get(api).json();
		assertThat(running.get("progress").asInt()).isEqualTo(40);
		assertThat(running.get("progressData").asString()).as("the handler's object, like the payload")
			.isEqualTo("******");
		assertThat(running.get("fields").has("progress")).isFalse();
		assertThat(running.get("fields").has("progress_data")).isFalse();

		assertThat(this.jobs.outcomes().complete(queue, id, claimed.token(), null, "{\"pages\":12}").isApplied())
			.isTrue();
		JsonNode completed = this.client.get(api).json();
		assertThat(completed.get("state").asString()).isEqualTo("completed");
		assertThat(completed.get("result").asString()).isEqualTo("******");
		assertThat(completed.get("progress").asInt()).isEqualTo(40);
		assertThat(completed.get("fields").has("result")).isFalse();
		assertThat(completed.get("fields").get("completed_at").asString()).matches("\\d{13}");
	}

	@Test
	void cancelShouldAnswerEachOutcome() {
		String queue = DashboardTestApplication.unique("cancels");
		TestHandler handler = listen(queue);
		JobId later = this.template.enqueue(queue, "later", EnqueueOptions.delayed(Duration.ofHours(1)));
		JobId running = this.template.enqueue(queue, "hold");
		await().atMost(WAIT).until(() -> stats(queue).active() == 1);
		JobId dead = deadJob(queue);
		this.client.open();
		String api = "/api/queues/" + queue + "/jobs/";

		Response cancelled = this.client.post(api + later + "/cancel");
		assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
		assertThat(cancelled.json().get("result").asString()).isEqualTo("CANCELLED");
		assertThat(cancelled.message()).contains("cancelled (it was scheduled)");
		assertThat(this.inspector.row(queue, later)).isEmpty();
		assertThat(stats(queue).schedule()).isZero();

		Response gone = this.client.post(api + later + "/cancel");
		assertThat(gone.status()).as("%s", gone).isEqualTo(404);
		assertThat(gone.json().get("result").asString()).isEqualTo("NOT_FOUND");

		Response requested = this.client.post(api + running + "/cancel");
		assertThat(requested.status()).as("%s", requested).isEqualTo(200);
		assertThat(requested.json().get("result").asString()).isEqualTo("REQUESTED");
		assertThat(requested.message()).contains("requested");

		this.jobs.executor()
			.getTemplate()
			.opsForHash()
			.put(this.jobs.keyspace().jobKey(queue, dead), "state", "quarantine");
		Response refused = this.client.post(api + dead + "/cancel");
		assertThat(refused.status()).as("%s", refused).isEqualTo(409);
		assertThat(refused.json().get("result").asString()).isEqualTo("REFUSED");
		assertThat(refused.message()).contains("quarantined");
		assertThat(stats(queue).dead()).isEqualTo(1);
		assertClientError(this.client.post(api + "JOBforged/cancel"), 400, "Invalid JOB id");
		handler.release();
		await().atMost(WAIT).until(() -> stats(queue).active() == 0);
		assertThat(this.inspector.row(queue, running)).isEmpty();
	}

	@Test
	void clusterPauseAndSchedulesShouldBeShownAndActedOn() {
		String queue = DashboardTestApplication.unique("cluster");
		listen(queue);
		this.client.open();
		String api = "/api/queues/" + queue;
		assertThat(this.client.get(api).json().get("pausedCluster").asBoolean()).isFalse();

		Response paused = this.client.post(api + "/cluster/pause");
		assertThat(paused.status()).as("%s", paused).isEqualTo(200);
		assertThat(paused.message()).contains("paused on every node");
		assertThat(this.admin.isPaused(queue)).isTrue();
		assertThat(this.client.get(api).json().get("pausedCluster").asBoolean()).isTrue();
		assertThat(queue(this.client.get("/api/overview").json(), queue).get("pausedCluster").asBoolean()).isTrue();
		assertThat(this.listeners.getContainer(queue).isPaused()).as("the node's own pause is another").isFalse();
		assertThat(this.client.post(api + "/cluster/pause").message()).contains("already paused");
		JobId waiting = this.template.enqueue(queue, "waits for resume");
		Response resumed = this.client.post(api + "/cluster/resume");
		assertThat(resumed.status()).as("%s", resumed).isEqualTo(200);
		assertThat(this.admin.isPaused(queue)).isFalse();
		assertThat(this.client.get(api).json().get("pausedCluster").asBoolean()).isFalse();
		await().atMost(WAIT).until(() -> this.inspector.row(queue, waiting).isEmpty());

		this.template.schedule(queue, "hourly-report", ScheduleSpec.every(Duration.ofHours(1)), "report");
		JsonNode schedules = this.client.get("/api/schedules").json();
		assertThat(schedules.get("ticked").asBoolean()).isTrue();
		JsonNode listed = null;
		for (JsonNode schedule : schedules.get("schedules")) {
			if (queue.equals(schedule.get("queue").asString())) {
				listed = schedule;
			}
		}
		assertThat(listed).as("%s", schedules).isNotNull();
		assertThat(listed.get("name").asString()).isEqualTo("hourly-report");
		assertThat(listed.get("spec").asString()).contains("every 1h");
		assertThat(listed.get("origin").asString()).isEqualTo("api");
		Response triggered = this.client.post("/api/schedules/" + queue + "/hourly-report/trigger");
		assertThat(triggered.status()).as("%s", triggered).isEqualTo(200);
		assertThat(triggered.message()).contains("triggered");
		assertThat(stats(queue).counters()).containsKey("enqueued");
		assertClientError(this.client.post("/api/schedules/" + queue + "/no-such/trigger"), 404, "has no schedule");
		assertClientError(this.client.post("/api/schedules/" + queue + "/bad%20name/trigger"), 400, "bad name");
		Response schedulePaused = this.client.post("/api/schedules/" + queue + "/hourly-report/pause");
		assertThat(schedulePaused.status()).as("%s", schedulePaused).isEqualTo(200);
		assertThat(schedulePaused.message()).contains("paused");
		assertThat(this.template.schedules(queue)).singleElement().satisfies((state) -> {
			assertThat(state.paused()).isTrue();
			assertThat(state.nextFire()).isNull();
		});
		JsonNode pausedList = this.client.get("/api/schedules").json();
		for (JsonNode schedule : pausedList.get("schedules")) {
			if (queue.equals(schedule.get("queue").asString())) {
				assertThat(schedule.get("paused").asBoolean()).isTrue();
			}
		}
		assertThat(this.client.post("/api/schedules/" + queue + "/hourly-report/resume").status()).isEqualTo(200);
		assertThat(this.template.schedules(queue).get(0).paused()).isFalse();
		assertClientError(this.client.post("/api/schedules/" + queue + "/no-such/pause"), 404, "has no schedule");
		assertThat(this.client.post("/api/schedules/" + queue + "/hourly-report/delete").status()).isEqualTo(200);
		assertThat(this.template.schedules(queue)).isEmpty();
	}

	@Test
	void limitsShouldBeStoredOnlyThroughTheGuardAndFromGoodInput() {
		String queue = DashboardTestApplication.unique("limits");
		listen(queue);
		this.client.open();
		String token = this.client.meta("csrf-token");
		String origin = "http://localhost:" + this.port;
		String limits = "/api/queues/" + queue + "/limits";

		assertClientError(this.client.post(limits + "?concurrency=3", Map.of("Origin", origin), ""), 403,
				"Missing CSRF token");
		assertClientError(
				this.client.post(limits + "?concurrency=3",
						Map.of(DashboardWriteGuard.HEADER, token, "Origin", "https://evil.example"), ""),
				403, "Cross-origin action refused");
		assertClientError(this.client.post(limits + "/reset", Map.of("Origin", origin), ""), 403, "Missing CSRF token");
		assertClientError(this.client.post(limits), 400, "No limit given");
		assertClientError(this.client.post(limits + "?rateLimit=5&concurrency=3"), 400,
				"rate limit and period go together");
		assertClientError(this.client.post(limits + "?maxActive=0&concurrency=3"), 400, "max-active must be positive");
		assertClientError(this.client.post(limits + "?maxActive=7&concurrency=0"), 400, "concurrency must be positive");
		assertClientError(this.client.post(limits + "?maxActive=7&rateLimit=5&period=soon"), 400,
				"period must be a duration");
		assertClientError(this.client.post(limits + "?maxActive=seven"), 400, "maxActive must be a whole number");
		assertClientError(this.client.post(limits + "/reset?which=speed"), 400, "No such limit 'speed'");
		assertThat(this.admin.limits(queue).stored().isLimited()).isFalse();
		assertThat(this.admin.limits(queue).storedConcurrency()).isNull();

		assertThat(this.client.post(limits + "?rateLimit=5&period=2s&concurrency=3").status()).isEqualTo(200);
		assertThat(this.admin.limits(queue).stored().rateLimit())
			.isEqualTo(new FlowLimits.RateLimit(5, Duration.ofSeconds(2)));
		assertThat(this.admin.limits(queue).storedConcurrency()).isEqualTo(3);
		assertThat(this.client.post(limits + "/reset?which=concurrency").status()).isEqualTo(200);
		assertThat(this.admin.limits(queue).storedConcurrency()).isNull();
		assertThat(this.admin.limits(queue).stored().isLimited()).isTrue();
		assertThat(this.client.post(limits + "/reset").status()).isEqualTo(200);
		assertThat(this.admin.limits(queue).stored().isLimited()).isFalse();
	}

	private JobId deadJob(String queue) {
		JobId id = this.template.enqueue(queue, "bad");
		await().atMost(WAIT).until(() -> stats(queue).dead() == 1);
		return id;
	}

}
