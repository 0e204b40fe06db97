package io.echomq.dashboard;

import io.echomq.core.JobId;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One setting shows payloads: an application that sets only
 * {@code management.endpoint.echomq.show-values} (as the sample does) sees them
 * unsanitized on the dashboard's pages too, in a real headless Chromium.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.refresh=400ms", "management.endpoint.echomq.show-values=always" })
class EchoMqDashboardEndpointShowValuesBrowserTests extends DashboardBrowserTestSupport {

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void theEndpointsShowValuesUnmasksTheDashboardsPayloads() {
		WebDriver driver = driver();
		JobId receipt = this.template.enqueue("receipts", "{\"receipt\":1041,\"customer\":\"ada\"}");
		String base = "http://localhost:" + this.port + "/echomq";

		driver.get(base + "/queues/receipts?state=pending");
		await().atMost(WAIT)
			.ignoreExceptions()
			.untilAsserted(
					() -> assertThat(driver.findElement(By.cssSelector("#job-" + receipt + " td.payload")).getText())
						.contains("1041")
						.contains("ada"));
		assertThat(driver.getPageSource()).doesNotContain("Payloads are hidden");

		driver.get(base + "/jobs/" + receipt);
		await().atMost(WAIT)
			.ignoreExceptions()
			.untilAsserted(() -> assertThat(driver.findElement(By.id("job-payload")).getText()).contains("1041")
				.contains("ada")
				.doesNotContain("******"));
	}

}
