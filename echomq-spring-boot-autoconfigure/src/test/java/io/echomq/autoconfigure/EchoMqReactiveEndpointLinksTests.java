package io.echomq.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code echomq} endpoint's links on a reactive (WebFlux, Netty) application's
 * actuator page, with every auto-configuration of the class path: the fixed segments are
 * written out as on a servlet one, and the endpoint answers at those paths.
 *
 * @author EchoMQ
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = { "spring.main.web-application-type=reactive",
		"management.endpoints.web.exposure.include=echomq,health" })
class EchoMqReactiveEndpointLinksTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		TestServer server = ObservabilityTestSupport.server();
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
		registry.add("echomq.key-prefix", () -> ObservabilityTestSupport.unique("reactive"));
	}

	@Test
	void discoveryPageNamesTheEndpointsFixedSegments() throws Exception {
		HttpResponse<String> page = get("/actuator");
		assertThat(page.statusCode()).isEqualTo(200);
		JsonNode links = JsonMapper.builder().build().readTree(page.body()).get("_links");
		assertThat(links.get("echomq-queues-queue").get("href").asString()).endsWith("/actuator/echomq/queues/{queue}");
		assertThat(links.get("echomq-queues-queue-dead").get("href").asString())
			.endsWith("/actuator/echomq/queues/{queue}/dead");
		assertThat(links.get("echomq-schedules").get("href").asString()).endsWith("/actuator/echomq/schedules");
		assertThat(links.get("health").get("href").asString()).endsWith("/actuator/health");
		assertThat(links.toString()).as("only selectors that vary are listed as variables")
			.doesNotContain("{queues}", "{schedules}", "{dead}");
		assertThat(page.headers().firstValueAsLong("Content-Length")).hasValue((long) page.body().getBytes().length);
		assertThat(get("/actuator/echomq/schedules").statusCode()).isEqualTo(200);
		assertThat(get("/actuator/echomq").statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).GET().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ReactiveApplication {

	}

}
