package io.echomq.listener;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The value an {@code @EchoJob} method returns is its job's result, stored by the
 * completion and read back typed through the template, as an application configures it.
 *
 * @author EchoMQ
 */
class JobResultsIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void theReturnValueIsTheResultTheTemplateReads() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("quotes", new Request("sku-1", 3));
			JobId none = template.enqueue("quotes", new Request("void", 0));
			await().atMost(TIMEOUT).until(() -> template.result("quotes", id, Quote.class) != null);
			assertThat(template.result("quotes", id, Quote.class)).isEqualTo(new Quote("sku-1", 30));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.metrics("quotes").getOrDefault("completed", "0").equals("2"));
				assertThat(probe.template().hasKey(this.prefix + ":{quotes}:result:" + none)).isFalse();
				assertThat(probe.template().getExpire(this.prefix + ":{quotes}:result:" + id)).isBetween(500L, 600L);
			}
			assertThat(template.result("quotes", none, Quote.class)).isNull();
		});
	}

	@Test
	void aRetainedQueueKeepsTheResultOnTheRow() {
		runner("echomq.queues.quotes.retention.completed.count=10").run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("quotes", new Request("sku-2", 2));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.members("quotes", KeyType.COMPLETED).contains(id.toString()));
				assertThat(probe.row("quotes", id)).containsEntry("result", "{\"sku\":\"sku-2\",\"cents\":20}");
				assertThat(probe.template().hasKey(this.prefix + ":{quotes}:result:" + id)).isFalse();
			}
			assertThat(template.result("quotes", id, Quote.class)).isEqualTo(new Quote("sku-2", 20));
		});
	}

	@Test
	void aResultOverTheCapFailsTheAttemptAndStoresNothing() {
		runner("echomq.results.max-size=16B", "echomq.queues.quotes.max-attempts=1").run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("quotes", new Request("a-rather-long-sku", 1));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.members("quotes", KeyType.DEAD).contains(id.toString()));
				Map<String, String> row = probe.row("quotes", id);
				assertThat(row.get("last_error")).contains("ResultTooLargeException")
					.contains("larger than echomq.results.max-size (16 bytes)");
				assertThat(row).doesNotContainKey("result");
				assertThat(probe.template().hasKey(this.prefix + ":{quotes}:result:" + id)).isFalse();
			}
			assertThat(template.result("quotes", id, Quote.class)).isNull();
		});
	}

	@Test
	void theResultTtlIsBoundPerQueue() {
		runner("echomq.results.ttl=1h", "echomq.queues.quotes.results.ttl=5m").run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("quotes", new Request("sku-3", 1));
			await().atMost(TIMEOUT).until(() -> template.result("quotes", id, Quote.class) != null);
			try (ListenerTestSupport.Probe probe = probe()) {
				assertThat(probe.template().getExpire(this.prefix + ":{quotes}:result:" + id)).isBetween(200L, 300L);
			}
			assertThat(Engine.of(context.getBean(EchoMqEngine.class)).results().ttl("other"))
				.isEqualTo(Duration.ofHours(1));
		});
	}

	@Test
	void progressIsOnTheRowWhileTheJobRuns() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			QuoteListener listener = context.getBean(QuoteListener.class);
			JobId id = template.enqueue("reports", new Request("r", 1));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> "50".equals(probe.row("reports", id).get("progress")));
				assertThat(probe.row("reports", id)).containsEntry("progress_data", "{\"step\":\"half\"}")
					.containsEntry("state", "active");
			}
			listener.release.countDown();
			await().atMost(TIMEOUT).until(() -> template.result("reports", id, String.class) != null);
			assertThat(template.result("reports", id, String.class)).isEqualTo("report r");
		});
	}

	private ApplicationContextRunner runner(String... properties) {
		return ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(QuoteConfiguration.class)
			.withPropertyValues(properties);
	}

	private ListenerTestSupport.Probe probe() {
		return new ListenerTestSupport.Probe(server, this.prefix);
	}

	@Configuration(proxyBeanMethods = false)
	static class QuoteConfiguration {

		@Bean
		QuoteListener quoteListener() {
			return new QuoteListener();
		}

	}

	static class QuoteListener {

		final CountDownLatch release = new CountDownLatch(1);

		@EchoJob(queue = "reports")
		String report(JobContext context, Request request) throws InterruptedException {
			context.progress(50);
			context.progress(new Step("half"));
			this.release.await(10, TimeUnit.SECONDS);
			return "report " + request.sku();
		}

		@EchoJob(queue = "quotes")
		Quote quote(Request request) {
			if (request.sku().equals("void")) {
				return null;
			}
			return new Quote(request.sku(), request.quantity() * 10);
		}

	}

	record Request(String sku, int quantity) {

	}

	record Quote(String sku, int cents) {

	}

	record Step(String step) {

	}

}
