package io.echomq.sample;

import java.time.Duration;

import io.echomq.inspect.QueueInspector;
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
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The sample's unique job: however many sign-ups come in, the team gets one note per
 * window.
 *
 * @author EchoMQ
 */
@SpringBootTest(properties = { "sample.demo-signups=0", "sample.crm-failure-rate=0", "sample.digest-window=10m",
		"echomq.key-prefix=sampleunique" })
@AutoConfigureMockMvc
@AutoConfigureEchoMqServer
class SampleUniqueJobTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private Mailer mailer;

	@Autowired
	private QueueInspector inspector;

	@Test
	void manySignUpsShouldMakeOneTeamNotePerWindow() throws Exception {
		signUp("Ada");
		signUp("Grace");
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.inspector.stats(SignupService.DIGEST_QUEUE).counters())
				.containsEntry("completed", 1L));
		signUp("Linus");
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(this.inspector.stats(SignupService.WELCOME_QUEUE).counters())
				.containsEntry("completed", 3L));
		assertThat(this.inspector.stats(SignupService.DIGEST_QUEUE).counters()).containsEntry("enqueued", 1L);
		assertThat(this.mailer.sent()).filteredOn((sent) -> sent.startsWith("team@example.com"))
			.containsExactly("team@example.com: New sign-ups, starting with Ada");
	}

	private void signUp(String name) throws Exception {
		this.mvc
			.perform(post("/signups").contentType(MediaType.APPLICATION_JSON)
				.content("{\"email\":\"" + name.toLowerCase() + "@example.com\",\"name\":\"" + name + "\"}"))
			.andExpect(status().isAccepted());
	}

}
