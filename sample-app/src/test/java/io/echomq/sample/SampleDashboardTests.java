package io.echomq.sample;

import io.echomq.test.context.AutoConfigureEchoMqServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The sample serves the dashboard at {@code /echomq}, with its queues.
 *
 * @author EchoMQ
 */
@SpringBootTest(properties = { "sample.demo-signups=0", "echomq.key-prefix=sampledash" })
@AutoConfigureMockMvc
@AutoConfigureEchoMqServer
class SampleDashboardTests {

	@Autowired
	private MockMvc mvc;

	@Test
	void dashboardShouldBeServedWithTheSampleQueues() throws Exception {
		this.mvc.perform(get("/echomq"))
			.andExpect(status().isOk())
			.andExpect(content().string(containsString("<meta name=\"echomq-refresh\" content=\"2000\">")));
		this.mvc.perform(get("/echomq/api/overview"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.node").value(containsString("echomq-sample")))
			.andExpect(jsonPath("$.queues[?(@.name == '" + SignupService.WELCOME_QUEUE + "')].listener.concurrency")
				.value(8));
	}

}
