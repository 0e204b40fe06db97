package io.echomq.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.autoconfigure.EvictionPolicyCheck;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobFailedException;
import io.echomq.core.JobId;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.listener.ListenerSettings;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A representative run as the ACL user EchoMQ documents
 * ({@code io/echomq/core/echomq.acl}, with its password and key prefix filled in) on a
 * server of this test's own: enqueue, claim and complete, retry, delayed jobs, unique
 * keys, lanes, a dead job replayed, a recurring schedule, the audit, the dashboard's and
 * the endpoint's reads; then the server's {@code ACL LOG} must hold no denial, and the
 * eviction-policy check (denied {@code CONFIG GET}) must say it could not check.
 *
 * @author EchoMQ
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = DashboardTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"management.endpoints.web.exposure.include=echomq,health", "management.endpoint.health.show-details=always" })
class EchoMqLeastPrivilegeTests extends DashboardWebTestSupport {

	private static final String PASSWORD = "s3cret-" + DashboardTestApplication.unique("pw");

	private static final String PREFIX = DashboardTestApplication.unique("acl");

	private static TestServer server;

	@Autowired
	private StringRedisTemplate redis;

	// started before the context loads, so a missing server skips the class (outside CI)
	// instead of failing the context
	@BeforeAll
	static void startServer() throws IOException {
		server = TestRedisServer.startOwned(ServerFlavor.VALKEY);
		try (RespClient admin = server.process().orElseThrow().openClient()) {
			List<String> rules = List.of(documentedAcl().replace(">CHANGE-ME", ">" + PASSWORD)
				.replace("~emq:*", "~" + PREFIX + ":*")
				.replace("&emq:*", "&" + PREFIX + ":*")
				.split(" "));
			assertThat(rules.subList(0, 2)).containsExactly("user", "echomq");
			String[] command = new String[rules.size() + 1];
			command[0] = "ACL";
			command[1] = "SETUSER";
			for (int i = 1; i < rules.size(); i++) {
				command[i + 1] = rules.get(i);
			}
			assertThat(admin.commandForString(command)).isEqualTo("OK");
		}
	}

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
		registry.add("spring.data.redis.host", server::host);
		registry.add("spring.data.redis.port", server::port);
		registry.add("spring.data.redis.username", () -> "echomq");
		registry.add("spring.data.redis.password", () -> PASSWORD);
		registry.add("echomq.key-prefix", () -> PREFIX);
	}

	@AfterAll
	static void stopServer() throws Exception {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void representativeRunShouldNeedNoCommandTheAclDenies(CapturedOutput output) throws Exception {
		String queue = DashboardTestApplication.unique("mail");
		AtomicInteger failures = new AtomicInteger();
		Set<String> done = ConcurrentHashMap.newKeySet();
		this.listeners.register(queue, (job, context) -> {
			if (job.payload().contains("flaky") && context.attempt() == 1) {
				failures.incrementAndGet();
				throw new IllegalStateException("first attempt fails");
			}
			if (job.payload().contains("poison")) {
				throw new IllegalStateException("never works");
			}
			done.add(job.payload());
		}, ListenerSettings.builder().maxAttempts(2).build());

		this.template.enqueueAll(queue, List.of("a", "b"));
		this.template.enqueue(queue, "flaky");
		this.template.enqueue(queue, "delayed", EnqueueOptions.delayed(Duration.ofMillis(300)));
		JobId unique = this.template.enqueue(queue, "unique", EnqueueOptions.defaults().withUniqueKey("order-1"));
		this.template.enqueue(queue, "lane a", EnqueueOptions.defaults().withLane("tenant-a"));
		this.template.enqueue(queue, "lane b", EnqueueOptions.defaults().withLane("tenant-b"));
		JobId poison = this.template.enqueue(queue, "poison");
		this.template.schedule(queue, "tick", ScheduleSpec.every(Duration.ofSeconds(1)), "tick");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(done).contains("\"a\"", "\"b\"", "\"flaky\"", "\"delayed\"", "\"unique\"",
					"\"lane a\"", "\"lane b\"", "\"tick\""));
		assertThat(failures).hasValue(1);
		assertThat(unique).isNotNull();
		await().atMost(WAIT).until(() -> this.inspector.stats(queue).dead() == 1);
		assertThat(this.admin.replay(queue, poison, 1).isApplied()).isTrue();
		// awaiting subscribes to the queue's done channel, which the scripts publish on
		JobId awaited = this.template.enqueue(queue, "poison, awaited");
		assertThatExceptionOfType(JobFailedException.class)
			.isThrownBy(() -> this.template.await(queue, awaited, String.class, WAIT))
			.satisfies((ex) -> assertThat(ex.getLastError()).contains("never works"));
		AuditReport audit = new QueueAuditor(this.jobs).audit(queue, Duration.ofSeconds(5));
		assertThat(audit.violations()).isEmpty();

		assertThat(this.client.get("/api/overview").status()).isEqualTo(200);
		assertThat(this.client.get("/api/queues/" + queue).status()).isEqualTo(200);
		assertThat(this.client.get("/api/queues/" + queue + "/jobs?state=dead").status()).isEqualTo(200);
		assertThat(this.client.get("/api/schedules").status()).isEqualTo(200);
		assertThat(this.client.get("/api/history").status()).isEqualTo(200);
		assertThat(this.client.get("/api/jobs/" + poison).status()).isEqualTo(200);
		assertThat(this.client.get("/api/queues/" + queue + "/jobs/" + poison).status()).isEqualTo(200);
		assertThat(this.client.get("/api/queues/" + queue + "/jobs?state=completed").status()).isEqualTo(200);
		DashboardClient actuator = new DashboardClient(this.port, "/actuator");
		assertThat(actuator.get("/echomq").status()).isEqualTo(200);
		assertThat(actuator.get("/echomq/queues/" + queue + "/audit").json().get("clean").asBoolean()).isTrue();
		assertThat(actuator.get("/echomq/schedules").status()).isEqualTo(200);

		assertThat(new EvictionPolicyCheck(this.redis).check())
			.hasValueSatisfying((warning) -> assertThat(warning).contains("Could not check").contains("NOPERM"));
		assertThat(output).contains("Could not check the Redis maxmemory-policy (NOPERM")
			.contains("EchoMQ uses Redis standalone at " + server.host() + ":" + server.port() + ", Valkey "
					+ server.version());
		try (RespClient admin = server.process().orElseThrow().openClient()) {
			List<?> log = (List<?>) admin.command("ACL", "LOG");
			assertThat(log).as("ACL LOG").isNotEmpty().allSatisfy((entry) -> {
				List<?> fields = (List<?>) entry;
				assertThat(fields.get(fields.indexOf("object") + 1)).as("a denial in ACL LOG: %s", fields)
					.isEqualTo("config|get");
			});
		}
	}

	private static String documentedAcl() throws IOException {
		try (InputStream in = EchoMqLeastPrivilegeTests.class.getResourceAsStream("/io/echomq/core/echomq.acl")) {
			assertThat(in).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
		}
	}

}
