package io.echomq.sample;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
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
@SpringBootTest(properties = { "sample.demo-signups=0", "echomq.key-prefix=sampledash",
		"sample.embedded-redis.enabled=false" })
@AutoConfigureMockMvc
class SampleDashboardTests {

	private static final TestServer server = TestRedisServer.shared(ServerFlavor.VALKEY);

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
	}

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
