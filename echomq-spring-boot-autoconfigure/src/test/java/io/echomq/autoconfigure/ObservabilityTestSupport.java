package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EnqueueOptions;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.awaitility.Awaitility.await;

/**
 * Shared set-up of the observability tests: the server shared by this JVM, a key prefix
 * of each test's own, and a context runner on Redis, Jackson and EchoMQ.
 *
 * @author EchoMQ
 */
final class ObservabilityTestSupport {

	private ObservabilityTestSupport() {
	}

	static TestServer server() {
		return TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
	}

	static String unique(String name) {
		return name + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
	}

	static ApplicationContextRunner runner(Class<?>... more) {
		TestServer server = server();
		Class<?>[] classes = new Class<?>[more.length + 3];
		classes[0] = DataRedisAutoConfiguration.class;
		classes[1] = JacksonAutoConfiguration.class;
		classes[2] = EchoMqAutoConfiguration.class;
		System.arraycopy(more, 0, classes, 3, more.length);
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(classes))
			.withPropertyValues("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
					"echomq.key-prefix=" + unique("obs"), "echomq.shutdown.timeout=1s",
					"echomq.maintenance.promote-interval=50ms", "echomq.maintenance.reap-interval=100ms",
					"echomq.listener.backoff.initial=0s", "echomq.listener.idle-wait=500ms");
	}

	/**
	 * The flow limits of {@link #holdAtCap}'s queue: at most 2 active, 100 starts an hour
	 * (so that every start of the test is still in the window).
	 * @param queue the queue
	 * @return the property values
	 */
	static String[] flowLimits(String queue) {
		String prefix = "echomq.queues." + queue;
		return new String[] { prefix + ".max-active=2", prefix + ".rate-limit.limit=100",
				prefix + ".rate-limit.period=1h" };
	}

	/**
	 * Hold a queue at its {@link #flowLimits} cap: a listener whose handlers block gets
	 * two jobs of lane {@code a} and one of lane {@code b}, claims one of each (round
	 * robin) and is held there by the cap, leaving lane {@code a} with one pending job.
	 * @param context the application
	 * @param queue the queue
	 * @return the latch that lets the handlers finish
	 */
	static CountDownLatch holdAtCap(ApplicationContext context, String queue) {
		EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
		template.enqueue(queue, "a1", EnqueueOptions.defaults().withLane("a"));
		template.enqueue(queue, "a2", EnqueueOptions.defaults().withLane("a"));
		template.enqueue(queue, "b1", EnqueueOptions.defaults().withLane("b"));
		CountDownLatch release = new CountDownLatch(1);
		QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
			.register(queue, (job, jobContext) -> release.await(30, TimeUnit.SECONDS),
					ListenerSettings.builder().concurrency(4).build());
		await().atMost(Duration.ofSeconds(10)).until(() -> container.inFlight() == 2);
		return release;
	}

}
