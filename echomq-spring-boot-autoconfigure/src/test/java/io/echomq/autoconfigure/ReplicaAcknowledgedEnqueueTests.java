package io.echomq.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.core.Durability;
import io.echomq.core.JobId;
import io.echomq.core.ReplicationTimeoutException;
import io.echomq.core.internal.Engine;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue with a durability ({@code echomq.queues.NAME.durability}) returns from an
 * enqueue only once a replica has the job, throws a typed exception naming the job when
 * the replica does not acknowledge in time (the job stays on the primary), and a queue
 * without it sends no {@code WAIT}. A primary and one replica, both real processes; the
 * replica is frozen with {@code SIGSTOP} to make it lag.
 *
 * @author EchoMQ
 */
class ReplicaAcknowledgedEnqueueTests {

	private static TestServer primary;

	private static TestServer replica;

	@BeforeAll
	static void start() {
		ServerOptions options = ServerOptions.builder().extraArgs("--repl-diskless-sync-delay", "0").build();
		primary = TestRedisServer.startOwned(ServerFlavor.VALKEY, options);
		replica = TestRedisServer.startOwned(ServerFlavor.VALKEY,
				options.toBuilder().extraArgs("--replicaof", primary.host(), String.valueOf(primary.port())).build());
		await().atMost(Duration.ofSeconds(30))
			.until(() -> command(replica, "INFO", "replication").toString().contains("master_link_status:up"));
	}

	@AfterAll
	static void stop() {
		for (TestServer server : new TestServer[] { replica, primary }) {
			if (server != null) {
				server.close();
			}
		}
	}

	@Test
	void enqueueShouldReturnOnlyOnceTheReplicaHasTheJob() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			Engine jobs = context.getBean(Engine.class);
			template.enqueue("durable", "warm-up");
			CompletableFuture<JobId> enqueue;
			signal(replica, "STOP");
			try {
				enqueue = CompletableFuture.supplyAsync(() -> template.enqueue("durable", "while frozen"));
				await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3)).until(() -> !enqueue.isDone());
			}
			finally {
				signal(replica, "CONT");
			}
			JobId frozen = enqueue.get(10, TimeUnit.SECONDS);
			assertThat(command(replica, "EXISTS", jobs.keys("durable").row(frozen))).isEqualTo(1L);
			List<JobId> ids = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				JobId id = template.enqueue("durable", "job " + i);
				ids.add(id);
				assertThat(command(replica, "EXISTS", jobs.keys("durable").row(id))).as("job %d on the replica", i)
					.isEqualTo(1L);
			}
			List<JobId> batch = template.enqueueAll("durable", List.of("a", "b", "c"));
			for (JobId id : batch) {
				assertThat(command(replica, "EXISTS", jobs.keys("durable").row(id))).isEqualTo(1L);
			}
		});
	}

	@Test
	void enqueueShouldThrowNamingTheJobWhenTheReplicaDoesNotAcknowledgeInTime() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			Engine jobs = context.getBean(Engine.class);
			template.enqueue("brief", "warm-up");
			ReplicationTimeoutException timeout = null;
			long started = System.nanoTime();
			signal(replica, "STOP");
			try {
				template.enqueue("brief", "unconfirmed");
			}
			catch (ReplicationTimeoutException ex) {
				timeout = ex;
			}
			finally {
				signal(replica, "CONT");
			}
			assertThat(timeout).as("the enqueue's ReplicationTimeoutException").isNotNull();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
			assertThat(timeout.getQueue()).isEqualTo("brief");
			assertThat(timeout.getAcknowledged()).isZero();
			assertThat(timeout.getRequired()).isEqualTo(1);
			assertThat(timeout.getJobIds()).hasSize(1);
			assertThat(timeout).hasMessageContaining("is on the primary")
				.hasMessageContaining("0 of 1 replicas")
				.hasMessageContaining(timeout.getJobIds().get(0).toString());
			String row = jobs.keys("brief").row(timeout.getJobIds().get(0));
			assertThat(command(primary, "EXISTS", row)).as("the job on the primary").isEqualTo(1L);
			await().atMost(Duration.ofSeconds(10)).until(() -> Long.valueOf(1).equals(command(replica, "EXISTS", row)));
			assertThat(template.enqueue("brief", "after")).isNotNull();
		});
	}

	@Test
	void queueWithoutDurabilityShouldSendNoWait() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			command(primary, "CONFIG", "RESETSTAT");
			for (int i = 0; i < 20; i++) {
				template.enqueue("plain", "job " + i);
			}
			template.enqueueAll("plain", List.of("a", "b", "c"));
			assertThat(command(primary, "INFO", "commandstats").toString()).contains("cmdstat_evalsha")
				.doesNotContain("cmdstat_wait");
			template.enqueue("durable", "one");
			assertThat(command(primary, "INFO", "commandstats").toString()).contains("cmdstat_wait:calls=1,");
		});
	}

	@Test
	void durabilityShouldBindWithDefaultsAndRefuseNoReplicas() {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			assertThat(template.getDurability("brief")).isEqualTo(Durability.replicas(1, Duration.ofMillis(300)));
			assertThat(template.getDurability("durable")).isEqualTo(Durability.replicas(1, Duration.ofSeconds(5)));
			assertThat(template.getDurability("plain")).isNull();
		});
		runner().withPropertyValues("echomq.queues.none.durability.replicas=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("echomq.queues.*.durability.replicas"));
	}

	private static ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + primary.host(), "spring.data.redis.port=" + primary.port(),
					"spring.data.redis.timeout=5s", "echomq.key-prefix=" + ObservabilityTestSupport.unique("durable"),
					"echomq.queues.durable.durability.replicas=1", "echomq.queues.durable.durability.timeout=5s",
					"echomq.queues.brief.durability.timeout=300ms");
	}

	private static Object command(TestServer server, String... args) throws IOException {
		try (RespClient client = server.process().orElseThrow().openClient()) {
			return client.command(args);
		}
	}

	private static void signal(TestServer server, String signal) throws IOException, InterruptedException {
		RedisServerProcess process = server.process().orElseThrow();
		int exit = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
		assertThat(exit).as("kill -%s %d", signal, process.pid()).isZero();
	}

}
