package io.echomq.listener;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code spring.threads.virtual.enabled=true}, handlers run on virtual threads on
 * Java 21+ and on platform threads on Java 17, where Boot does not switch.
 *
 * @author EchoMQ
 */
class VirtualThreadsTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	@Test
	void handlersShouldRunOnVirtualThreadsWhenEnabledOnJava21() {
		String prefix = ListenerTestSupport.uniquePrefix();
		CompletableFuture<Thread> handlerThread = new CompletableFuture<>();
		ListenerTestSupport.runner(server, prefix)
			.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> {
				context.getBean(EchoJobListenerRegistry.class)
					.register("vt", (job, jobContext) -> handlerThread.complete(Thread.currentThread()));
				context.getBean(EchoMqTemplate.class).enqueue("vt", "x");
				Thread thread = handlerThread.get(10, TimeUnit.SECONDS);
				boolean java21 = Runtime.version().feature() >= 21;
				assertThat(isVirtual(thread)).as("virtual on %s", Runtime.version()).isEqualTo(java21);
			});
	}

	private static boolean isVirtual(Thread thread) throws Exception {
		try {
			Method isVirtual = Thread.class.getMethod("isVirtual");
			return (boolean) isVirtual.invoke(thread);
		}
		catch (NoSuchMethodException ex) {
			return false;
		}
	}

}
