package io.echomq.keepalive;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.Engine;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.keepalive.WorkerOnlyApplication.Task;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.test.ChildJvm;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker-only application (non-web, nothing but {@code @EchoJob} listeners) run in a
 * JVM of its own, as a user deploys one: it handles every job waiting for it and stays up
 * until it is stopped, then a {@code SIGTERM} ends it cleanly.
 *
 * @author EchoMQ
 */
class WorkerOnlyApplicationTests {

	private static final int JOBS = 60;

	@Test
	void workerOnlyApplicationHandlesEveryJobAndRunsUntilStopped() {
		TestServer server = ListenerTestSupport.sharedServer();
		String prefix = ListenerTestSupport.uniquePrefix();
		ListenerTestSupport.runner(server, prefix).run((context) -> {
			context.getBean(EchoMqTemplate.class)
				.enqueueAll(WorkerOnlyApplication.QUEUE, IntStream.range(0, JOBS).mapToObj(Task::new).toList());
			QueueInspector inspector = new QueueInspector(context.getBean(Engine.class));
			Path log = Files.createTempFile("echomq-worker-only-", ".log");
			Process worker = start(server, prefix, log);
			try {
				await("every job handled, or the worker gone").atMost(Duration.ofSeconds(90))
					.until(() -> completed(inspector) == JOBS || !worker.isAlive());
				assertThat(worker.isAlive()).as("worker JVM alive after start-up; its log:%n%s", Files.readString(log))
					.isTrue();
				assertThat(completed(inspector)).isEqualTo(JOBS);
				assertThat(Files.readString(log)).contains("MAIN RETURNED");
				assertThat(worker.waitFor(1, TimeUnit.SECONDS)).as("worker JVM still up with nothing to do").isFalse();

				// SIGTERM, leaving the child's standard input open (Process.destroy()
				// closes it)
				worker.toHandle().destroy();
				assertThat(worker.waitFor(60, TimeUnit.SECONDS)).as("worker JVM ended after SIGTERM").isTrue();
				String output = Files.readString(log);
				assertThat(worker.exitValue()).as("ended by SIGTERM; log:%n%s", output).isEqualTo(143);
				assertThat(output).doesNotContain(" ERROR ").doesNotContain(" WARN ").doesNotContain("Exception");
				QueueStats stats = inspector.stats(WorkerOnlyApplication.QUEUE);
				assertThat(stats.pending() + stats.active() + stats.schedule() + stats.dead()).isZero();
			}
			finally {
				worker.destroyForcibly();
				Files.deleteIfExists(log);
			}
		});
	}

	private static long completed(QueueInspector inspector) {
		return inspector.stats(WorkerOnlyApplication.QUEUE).counters().getOrDefault("completed", 0L);
	}

	private static Process start(TestServer server, String prefix, Path log) {
		return ChildJvm.start(WorkerOnlyApplication.class, log,
				List.of("--spring.data.redis.host=" + server.host(), "--spring.data.redis.port=" + server.port(),
						"--echomq.key-prefix=" + prefix, "--echomq.shutdown.timeout=5s",
						"--spring.main.banner-mode=off"));
	}

}
