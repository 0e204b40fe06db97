package io.echomq.listener;

import java.time.Duration;
import java.util.List;

import io.echomq.annotation.EchoJob;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the non-daemon thread by which {@link EchoJobListenerRegistry} keeps the JVM
 * alive while its listeners run ({@code WorkerOnlyApplicationTests} shows the effect on a
 * real application).
 *
 * @author EchoMQ
 */
class EchoJobListenerRegistryKeepAliveTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void runningListenersHoldOneNonDaemonThreadUntilTheRegistryStops() {
		// contexts of other test classes may still be cached with their listeners running
		List<Thread> before = keepAliveThreads();
		runner().run((context) -> {
			assertThat(keepAliveThreadsSince(before)).singleElement()
				.satisfies((thread) -> assertThat(thread.isDaemon()).isFalse());
			EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
			registry.stop();
			await().atMost(Duration.ofSeconds(10)).until(() -> keepAliveThreadsSince(before).isEmpty());
			registry.start();
			assertThat(keepAliveThreadsSince(before)).hasSize(1);
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> keepAliveThreadsSince(before).isEmpty());
	}

	@Test
	void registryWithoutRunningListenersHoldsNoThread() {
		List<Thread> before = keepAliveThreads();
		runner().withPropertyValues("echomq.listener.auto-startup=false").run((context) -> {
			assertThat(context.getBean(EchoJobListenerRegistry.class).getContainers()).hasSize(2);
			assertThat(keepAliveThreadsSince(before)).isEmpty();
		});
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withUserConfiguration(Handlers.class)
			.withPropertyValues("echomq.listener.idle-wait=200ms");
	}

	private static List<Thread> keepAliveThreadsSince(List<Thread> before) {
		return keepAliveThreads().stream().filter((thread) -> !before.contains(thread)).toList();
	}

	private static List<Thread> keepAliveThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals(EchoJobListenerRegistry.KEEP_ALIVE_THREAD_NAME))
			.filter(Thread::isAlive)
			.toList();
	}

	static class Handlers {

		@EchoJob(queue = "keep-alive-a")
		void a(String payload) {
		}

		@EchoJob(queue = "keep-alive-b")
		void b(String payload) {
		}

	}

}
