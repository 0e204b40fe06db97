package io.echomq.sample;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import io.echomq.EchoMqTemplate;
import io.echomq.inspect.QueueInspector;
import io.echomq.schedule.EchoMqSchedules;
import io.echomq.test.context.AutoConfigureEchoMqServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The sample end to end on a real server, as a user tests an application with
 * {@link AutoConfigureEchoMqServer}: a sign-up produces a welcome email now, a CRM sync,
 * and a tips email after its delay, then the "welcome done" job that waits for all three.
 *
 * @author EchoMQ
 */
@SpringBootTest(properties = { "sample.demo-signups=0", "sample.crm-failure-rate=0", "sample.tips-delay=300ms",
		"echomq.key-prefix=sampletest" })
@AutoConfigureMockMvc
@AutoConfigureEchoMqServer
class SampleApplicationTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private Mailer mailer;

	@Autowired
	private OnboardingJobs onboardingJobs;

	@Autowired
	private QueueInspector inspector;

	@Autowired
	private EchoMqTemplate template;

	@Autowired
	private EchoMqSchedules schedules;

	@Test
	void signUpShouldRunEveryJob() throws Exception {
		this.mvc
			.perform(post("/signups").contentType(MediaType.APPLICATION_JSON)
				.content("{\"email\":\"ada@example.com\",\"name\":\"Ada\"}"))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.jobs.length()").value(3))
			.andExpect(jsonPath("$.done").isString())
			.andExpect(jsonPath("$.welcome").value(org.hamcrest.Matchers.oneOf("sent to ada@example.com", "pending")));
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.mailer.sent()).contains("ada@example.com: Welcome, Ada!",
					"ada@example.com: Three tips for your first week"));
		await().atMost(Duration.ofSeconds(20)).until(() -> this.onboardingJobs.crmSynced() >= 1);
		assertThat(this.onboardingJobs.crmLanes()).as("the CRM sync ran in the company's lane").contains("example.com");
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.inspector.stats(SignupService.WELCOME_QUEUE).counters())
				.containsEntry("completed", 1L));
		assertThat(this.inspector.stats(SignupService.TIPS_QUEUE).counters()).containsEntry("promoted", 1L);
		// the flow's parent runs once, after its three children, and sees each of them
		// completed
		await().atMost(Duration.ofSeconds(20)).until(() -> !this.onboardingJobs.welcomed().isEmpty());
		assertThat(this.onboardingJobs.welcomed()).singleElement()
			.isEqualTo("ada@example.com [welcome-email completed, crm-sync completed, onboarding-tips completed]");
		List<String> sent = this.mailer.sent();
		int done = sent.indexOf("ada@example.com: You are all set, Ada");
		assertThat(done).isGreaterThan(sent.indexOf("ada@example.com: Welcome, Ada!"))
			.isGreaterThan(sent.indexOf("ada@example.com: Three tips for your first week"));
	}

	@Test
	void signUpWithoutEmailIsABadRequestNamingTheField() throws Exception {
		this.mvc.perform(post("/signups").contentType(MediaType.APPLICATION_JSON).content("{\"name\":\"Ada\"}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.missing").value(org.hamcrest.Matchers.contains("email")))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("email")));
		this.mvc
			.perform(
					post("/signups").contentType(MediaType.APPLICATION_JSON).content("{\"email\":\" \",\"name\":null}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.missing").value(org.hamcrest.Matchers.contains("email", "name")));
	}

	@Test
	void nightlyDigestShouldBeScheduledAndMailedWhenTriggered() {
		assertThat(this.template.schedules(NightlyJobs.DIGEST_QUEUE)).singleElement().satisfies((schedule) -> {
			assertThat(schedule.definition().name()).isEqualTo(NightlyJobs.DIGEST_SCHEDULE);
			assertThat(schedule.definition().spec().cron()).isEqualTo("0 0 2 * * *");
			assertThat(schedule.definition().spec().zone().getId()).isEqualTo("Europe/Paris");
			assertThat(schedule.nextFire()).isAfter(Instant.now());
		});
		assertThat(this.schedules.trigger(NightlyJobs.DIGEST_QUEUE, NightlyJobs.DIGEST_SCHEDULE)).isNotNull();
		String expected = "team@example.com: Sign-ups of " + LocalDate.now(ZoneId.of("Europe/Paris")).minusDays(1);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(this.mailer.sent()).contains(expected));
	}

	@Test
	void crmSyncJobsRunInALanePerCompany() {
		assertThat(SignupService.companyLane("ada@Example.com")).isEqualTo("example.com");
		assertThat(SignupService.companyLane("x@a+b")).isEqualTo("a-b");
		assertThat(SignupService.companyLane("no-at-sign")).isEqualTo("no-at-sign");
	}

}
