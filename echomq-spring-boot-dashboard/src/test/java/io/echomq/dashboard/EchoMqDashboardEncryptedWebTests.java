package io.echomq.dashboard;

import java.time.Duration;
import java.util.Base64;

import io.echomq.core.JobId;
import io.echomq.core.internal.RowPayload;
import io.echomq.listener.ListenerSettings;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An encrypted queue's payloads are shown as {@code encrypted} by the dashboard and the
 * endpoint, even where values are shown: never the ciphertext, never the plaintext.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.show-values=always", "management.endpoint.echomq.show-values=always",
				"management.endpoints.web.exposure.include=echomq", "echomq.queues.vault.encryption.enabled=true",
				"echomq.encryption.current=v1" })
class EchoMqDashboardEncryptedWebTests extends DashboardWebTestSupport {

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
		registry.add("echomq.encryption.keys.v1", () -> Base64.getEncoder().encodeToString(new byte[32]));
	}

	@Test
	void encryptedPayloadsAreShownAsEncrypted() {
		this.listeners.register("vault", (job, context) -> {
			throw new IllegalStateException("refused");
		}, ListenerSettings.builder().maxAttempts(1).build());
		JobId dead = this.template.enqueue("vault", "card 4111");
		await().atMost(Duration.ofSeconds(15)).until(() -> this.inspector.stats("vault").dead() == 1);
		assertThat(RowPayload.join(this.inspector.row("vault", dead))).startsWith("emq1:v1:");

		assertThat(this.client.get("/api/queues/vault/jobs?state=dead")
			.json()
			.get("jobs")
			.get(0)
			.get("payload")
			.asString()).isEqualTo("encrypted");
		assertThat(this.client.get("/api/queues/vault/jobs/" + dead).json().get("payload").asString())
			.isEqualTo("encrypted");
		DashboardClient actuator = new DashboardClient(this.port, "/actuator");
		assertThat(actuator.get("/echomq/queues/vault/dead").json().get("jobs").get(0).get("payload").asString())
			.isEqualTo("encrypted");
	}

}
