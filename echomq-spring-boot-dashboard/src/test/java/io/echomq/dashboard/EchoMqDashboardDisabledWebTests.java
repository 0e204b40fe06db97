package io.echomq.dashboard;

import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.dashboard.web.DashboardWriteGuard;
import io.echomq.inspect.QueueInspector;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code echomq.dashboard.enabled=false} nothing is served: no page, no API, no
 * action.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "echomq.dashboard.enabled=false")
class EchoMqDashboardDisabledWebTests extends DashboardWebTestSupport {

	@Autowired
	private ApplicationContext context;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void nothingShouldBeServed() {
		String queue = DashboardTestApplication.unique("off");
		JobId id = this.template.enqueue(queue, "x");
		assertThat(this.context.getBeanNamesForType(EchoMqDashboard.class)).isEmpty();
		DashboardClient client = new DashboardClient(this.port, "/echomq");
		assertThat(client.get("").status()).isEqualTo(404);
		assertThat(client.get("/").status()).isEqualTo(404);
		assertThat(client.get("/assets/app.js").status()).isEqualTo(404);
		assertThat(client.get("/api/overview").status()).isEqualTo(404);
		assertThat(client.get("/api/queues/" + queue + "/jobs/" + id).status()).isEqualTo(404);
		assertThat(
				client
					.post("/api/queues/" + queue + "/dead/purge",
							Map.of(DashboardWriteGuard.HEADER, "x".repeat(43), "Origin",
									"http://localhost:" + this.port),
							"")
					.status())
			.isBetween(404, 405);
		assertThat(new QueueInspector(this.jobs).row(queue, id)).containsEntry("state", "pending");
	}

}
