package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests of a listener whose server is killed and restarted mid-run.
 *
 * @author EchoMQ
 */
class RedisRestartTests {

	private static TestServer server;

	@BeforeAll
	static void startServer() {
		server = TestRedisServer.startOwned(ServerOptions.builder().appendOnly(true).appendFsync("always").build());
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void listenerSurvivesAServerKillAndRestart() {
		RedisServerProcess process = server.process().orElseThrow();
		ListenerTestSupport.runner(server, ListenerTestSupport.uniquePrefix())
			.withUserConfiguration(RecordingListener.class)
			.withPropertyValues("spring.data.redis.timeout=1s", "echomq.listener.lease=2s")
			.run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				RecordingListener listener = context.getBean(RecordingListener.class);
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("restart");
				List<JobId> before = List.of(template.enqueue("restart", "before-1"),
						template.enqueue("restart", "before-2"));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> listener.seen.containsAll(Set.of("before-1", "before-2")));

				process.kill();
				await().atMost(Duration.ofSeconds(15)).until(() -> container.getConsecutiveFailures() > 0);
				assertThat(container.isPollerAlive()).isTrue();
				process.restart();

				List<JobId> after = List.of(template.enqueue("restart", "after-1"),
						template.enqueue("restart", "after-2"));
				await().atMost(Duration.ofSeconds(20))
					.until(() -> listener.seen.containsAll(Set.of("after-1", "after-2")));
				await().atMost(Duration.ofSeconds(10)).until(() -> container.getConsecutiveFailures() == 0);
				assertThat(container.isPollerAlive()).isTrue();
				assertThat(listener.threads).allSatisfy((name) -> assertThat(name).startsWith("echomq-restart-"));
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server,
						context.getEnvironment().getProperty("echomq.key-prefix"))) {
					await().atMost(Duration.ofSeconds(10))
						.until(() -> probe.members("restart", KeyType.ACTIVE).isEmpty()
								&& probe.members("restart", KeyType.PENDING).isEmpty());
					for (JobId id : after) {
						assertThat(probe.row("restart", id)).isEmpty();
					}
					for (JobId id : before) {
						assertThat(probe.row("restart", id)).isEmpty();
					}
				}
			});
	}

	@Test
	void jobInFlightWhileTheServerIsDownRunsAgainAndCompletes() {
		RedisServerProcess process = server.process().orElseThrow();
		String prefix = ListenerTestSupport.uniquePrefix();
		ListenerTestSupport.runner(server, prefix)
			.withUserConfiguration(GatedListener.class)
			.withPropertyValues("spring.data.redis.timeout=2s", "echomq.queues.gated.lease=1s",
					"echomq.maintenance.reap-interval=200ms")
			.run((context) -> {
				GatedListener listener = context.getBean(GatedListener.class);
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("gated", "x");
				assertThat(listener.firstStarted.await(10, TimeUnit.SECONDS)).isTrue();
				process.kill();
				// the handler returns while Redis is down: the completion cannot be
				// written
				listener.gate.countDown();
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("gated");
				await().atMost(Duration.ofSeconds(15)).until(() -> container.getUnrecordedCount() == 1);
				process.restart();
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, prefix)) {
					await().atMost(Duration.ofSeconds(20)).until(() -> probe.row("gated", id).isEmpty());
					assertThat(probe.metrics("gated")).containsEntry("completed", "1").containsEntry("reaped", "1");
				}
				assertThat(listener.runs.get()).isEqualTo(2);
				assertThat(container.isPollerAlive()).isTrue();
			});
	}

	@Test
	void applicationStartsWhileTheServerIsDownAndConsumesOnceItIsUp() {
		RedisServerProcess process = server.process().orElseThrow();
		process.kill();
		try {
			ListenerTestSupport.runner(server, ListenerTestSupport.uniquePrefix())
				.withUserConfiguration(RecordingListener.class)
				.withPropertyValues("spring.data.redis.timeout=2s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
						.getContainer("restart");
					await().atMost(Duration.ofSeconds(10)).until(() -> container.getConsecutiveFailures() > 0);
					assertThat(container.isPollerAlive()).isTrue();
					process.restart();
					context.getBean(EchoMqTemplate.class).enqueue("restart", "late");
					await().atMost(Duration.ofSeconds(20))
						.until(() -> context.getBean(RecordingListener.class).seen.contains("late"));
				});
		}
		finally {
			if (!process.isAlive()) {
				process.restart();
			}
		}
	}

	static class GatedListener {

		final CountDownLatch firstStarted = new CountDownLatch(1);

		final CountDownLatch gate = new CountDownLatch(1);

		final AtomicInteger runs = new AtomicInteger();

		@EchoJob(queue = "gated")
		void handle(String payload) throws InterruptedException {
			this.runs.incrementAndGet();
			this.firstStarted.countDown();
			this.gate.await(30, TimeUnit.SECONDS);
		}

	}

	static class RecordingListener {

		final Set<String> seen = ConcurrentHashMap.newKeySet();

		final List<String> threads = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "restart")
		void handle(String payload) {
			this.threads.add(Thread.currentThread().getName());
			this.seen.add(payload);
		}

	}

}
