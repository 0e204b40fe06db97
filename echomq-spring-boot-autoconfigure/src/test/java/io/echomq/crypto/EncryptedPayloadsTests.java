package io.echomq.crypto;

import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.RowPayload;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobContext;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Payloads, results and progress objects of an encrypted queue, end to end on a real
 * server: stored encrypted, handed to the listener in clear, dead-lettered at once when
 * they cannot be decrypted, and still readable after the key rotates.
 *
 * @author EchoMQ
 */
class EncryptedPayloadsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String KEY_1 = key(1);

	private static final String KEY_2 = key(2);

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void thePayloadIsStoredEncryptedAndTheListenerGetsItInClear() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1).run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			SecretListener listener = context.getBean(SecretListener.class);
			JobId id = template.enqueue("secrets", new Card("4111-1111-1111-1111", "hold"));
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.row("secrets", id).containsKey("progress_data"));
				Map<String, String> row = probe.row("secrets", id);
				assertThat(RowPayload.join(row)).startsWith("emq1:v1:").doesNotContain("4111").doesNotContain("number");
				assertThat(row.get("progress_data")).startsWith("emq1:v1:").doesNotContain("half");
				assertThat(listener.cards.poll(10, TimeUnit.SECONDS))
					.isEqualTo(new Card("4111-1111-1111-1111", "hold"));
				assertThat(listener.texts.poll()).isEqualTo("{\"number\":\"4111-1111-1111-1111\",\"mode\":\"hold\"}");
				listener.release.offer(true);
				await().atMost(TIMEOUT).until(() -> template.result("secrets", id, String.class) != null);
				assertThat(template.result("secrets", id, String.class)).isEqualTo("charged 1111");
				assertThat(Engine.of(context.getBean(EchoMqEngine.class)).results().read("secrets", id))
					.startsWith("emq1:v1:")
					.doesNotContain("charged");
			}
		});
	}

	@Test
	void aHandlerRegisteredByHandGetsThePlaintextToo() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.queues.vault.encryption.enabled=true")
			.run((context) -> {
				BlockingQueue<String> seen = new LinkedBlockingQueue<>();
				EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
				registry.register("vault", (job, jobContext) -> {
					seen.add(job.payload());
					seen.add(jobContext.job().payload());
				}, ListenerSettings.builder().autoStartup(false).build());
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("vault", new Card("4111", "lambda"));
				try (ListenerTestSupport.Probe probe = probe()) {
					assertThat(RowPayload.join(probe.row("vault", id))).startsWith("emq1:v1:").doesNotContain("4111");
				}
				registry.getContainer("vault").start();
				assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"number\":\"4111\",\"mode\":\"lambda\"}");
				assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo("{\"number\":\"4111\",\"mode\":\"lambda\"}");
			});
	}

	@Test
	void aTamperedPayloadForAHandlerRegisteredByHandIsDeadAtOnce() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.queues.vault.encryption.enabled=true")
			.run((context) -> {
				BlockingQueue<String> seen = new LinkedBlockingQueue<>();
				EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
				registry.register("vault", (job, jobContext) -> seen.add(job.payload()),
						ListenerSettings.builder().autoStartup(false).build());
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("vault", new Card("4111", "ok"));
				try (ListenerTestSupport.Probe probe = probe()) {
					tamper(probe, "vault", id);
					registry.getContainer("vault").start();
					await().atMost(TIMEOUT).until(() -> probe.members("vault", KeyType.DEAD).contains(id.toString()));
					assertThat(probe.row("vault", id)).containsEntry("attempts", "1");
					assertThat(probe.row("vault", id).get("last_error")).contains("fails authentication");
				}
				assertThat(seen).isEmpty();
			});
	}

	@Test
	void otherQueuesStayInClear() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1).run((context) -> {
			JobId id = context.getBean(EchoMqTemplate.class).enqueue("plain", new Card("1", "x"));
			try (ListenerTestSupport.Probe probe = probe()) {
				assertThat(RowPayload.join(probe.row("plain", id))).isEqualTo("{\"number\":\"1\",\"mode\":\"x\"}");
			}
		});
	}

	@Test
	void aJobWhoseKeyVersionIsGoneIsDeadAtOnceWithTheVersionNamed() {
		JobId[] id = new JobId[1];
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.queues.secrets.auto-startup=false")
			.run((context) -> id[0] = context.getBean(EchoMqTemplate.class)
				.enqueue("secrets", new Card("4111-1111-1111-1111", "ok")));
		runner("echomq.encryption.current=v2", "echomq.encryption.keys.v2=" + KEY_2).run((context) -> {
			try (ListenerTestSupport.Probe probe = probe()) {
				await().atMost(TIMEOUT).until(() -> probe.members("secrets", KeyType.DEAD).contains(id[0].toString()));
				Map<String, String> row = probe.row("secrets", id[0]);
				assertThat(row).containsEntry("attempts", "1").containsEntry("max_attempts", "3");
				assertThat(row.get("last_error")).contains("needs payload key version 'v1'")
					.contains("current version 'v2'")
					.doesNotContain("4111");
			}
			assertThat(context.getBean(SecretListener.class).cards).isEmpty();
		});
	}

	@Test
	void aTamperedPayloadIsDeadAtOnce() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.queues.secrets.auto-startup=false")
			.run((context) -> {
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("secrets", new Card("4111", "ok"));
				try (ListenerTestSupport.Probe probe = probe()) {
					tamper(probe, "secrets", id);
					context.getBean(EchoJobListenerRegistry.class).getContainer("secrets").start();
					await().atMost(TIMEOUT).until(() -> probe.members("secrets", KeyType.DEAD).contains(id.toString()));
					assertThat(probe.row("secrets", id)).containsEntry("attempts", "1");
					assertThat(probe.row("secrets", id).get("last_error")).contains("fails authentication");
				}
				assertThat(context.getBean(SecretListener.class).cards).isEmpty();
			});
	}

	@Test
	void afterRotationOldJobsStillDecryptAndNewOnesUseTheNewKey() {
		JobId[] old = new JobId[1];
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.queues.secrets.auto-startup=false")
			.run((context) -> old[0] = context.getBean(EchoMqTemplate.class).enqueue("secrets", new Card("1", "ok")));
		runner("echomq.encryption.current=v2", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.encryption.keys.v2=" + KEY_2, "echomq.queues.secrets.auto-startup=false")
			.run((context) -> {
				JobId fresh = context.getBean(EchoMqTemplate.class).enqueue("secrets", new Card("2", "ok"));
				try (ListenerTestSupport.Probe probe = probe()) {
					assertThat(RowPayload.join(probe.row("secrets", old[0]))).startsWith("emq1:v1:");
					assertThat(RowPayload.join(probe.row("secrets", fresh))).startsWith("emq1:v2:");
				}
				SecretListener listener = context.getBean(SecretListener.class);
				context.getBean(EchoJobListenerRegistry.class).getContainer("secrets").start();
				assertThat(listener.cards.poll(10, TimeUnit.SECONDS)).isNotNull();
				assertThat(listener.cards.poll(10, TimeUnit.SECONDS)).isNotNull();
				listener.release.offer(true);
				listener.release.offer(true);
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				await().atMost(TIMEOUT)
					.until(() -> template.result("secrets", old[0], String.class) != null
							&& template.result("secrets", fresh, String.class) != null);
				assertThat(template.result("secrets", old[0], String.class)).isEqualTo("charged 1");
				assertThat(template.result("secrets", fresh, String.class)).isEqualTo("charged 2");
			});
	}

	@Test
	void anEncryptedQueueWithoutKeysFailsTheStartNamingQueueAndProperty() {
		runner().run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("Queue 'secrets' has echomq.queues.secrets.encryption.enabled=true")
			.hasMessageContaining("echomq.encryption.keys.<version>"));
	}

	@Test
	void aDeclaredScheduleOnAnEncryptedQueueIsRefused() {
		runner("echomq.encryption.current=v1", "echomq.encryption.keys.v1=" + KEY_1,
				"echomq.schedules.nightly.queue=secrets", "echomq.schedules.nightly.every=1h",
				"echomq.schedules.nightly.payload=x")
			.withConfiguration(org.springframework.boot.autoconfigure.AutoConfigurations
				.of(io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration.class))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidScheduleException.class)
				.hasMessageContaining("property echomq.schedules.nightly")
				.hasMessageContaining("EchoMqTemplate.schedule"));
	}

	private ApplicationContextRunner runner(String... properties) {
		return ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(SecretConfiguration.class)
			.withPropertyValues("echomq.queues.secrets.encryption.enabled=true")
			.withPropertyValues(properties);
	}

	private void tamper(ListenerTestSupport.Probe probe, String queue, JobId id) {
		String key = new io.echomq.core.Keyspace(this.prefix).jobKey(queue, id);
		String first = (String) probe.template().opsForHash().get(key, "payload");
		assertThat(first).startsWith("emq1:v1:");
		char flipped = (first.charAt(12) == 'A') ? 'B' : 'A';
		probe.template().opsForHash().put(key, "payload", first.substring(0, 12) + flipped + first.substring(13));
	}

	private ListenerTestSupport.Probe probe() {
		return new ListenerTestSupport.Probe(server, this.prefix);
	}

	private static String key(int seed) {
		byte[] key = new byte[32];
		for (int i = 0; i < key.length; i++) {
			key[i] = (byte) (seed * 17 + i);
		}
		return Base64.getEncoder().encodeToString(key);
	}

	@Configuration(proxyBeanMethods = false)
	static class SecretConfiguration {

		@Bean
		SecretListener secretListener() {
			return new SecretListener();
		}

	}

	static class SecretListener {

		final BlockingQueue<Card> cards = new LinkedBlockingQueue<>();

		final BlockingQueue<String> texts = new LinkedBlockingQueue<>();

		final BlockingQueue<Boolean> release = new LinkedBlockingQueue<>();

		@EchoJob(queue = "secrets")
		String charge(JobContext context, Card card) throws InterruptedException {
			context.progress(50);
			context.progress(new Step("half"));
			this.texts.add(context.job().payload());
			this.cards.add(card);
			this.release.poll(10, TimeUnit.SECONDS);
			return "charged " + card.number().substring(Math.max(0, card.number().length() - 4));
		}

	}

	record Card(String number, String mode) {

	}

	record Step(String step) {

	}

}
