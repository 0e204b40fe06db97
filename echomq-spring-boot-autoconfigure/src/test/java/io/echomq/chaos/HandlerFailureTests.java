package io.echomq.chaos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.chaos.worker.ChaosWorker;
import io.echomq.chaos.worker.WorkerSettings;
import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.listener.ReceivedJob;
import io.echomq.listener.UnreadablePayloadException;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whatever a handler throws, checked or not, {@link Error}s included, fails its attempt
 * and never kills a container thread: with one handler thread, every job of the run is
 * handled by the same thread. Unreadable payloads are dead-lettered with the reason while
 * the jobs around them complete.
 *
 * @author EchoMQ
 */
@Timeout(90)
class HandlerFailureTests {

	private TestServer server;

	@BeforeEach
	void useServer() {
		this.server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
	}

	@Test
	void everyKindOfThrowableFailsTheAttemptAndTheThreadSurvives() {
		Map<String, String> expectedErrors = new LinkedHashMap<>();
		// each kind of throwable the handler throws, and the start of the last error it
		// leaves
		"""
				runtime | java.lang.IllegalStateException: runtime
				checked | java.lang.Exception: checked
				io | java.io.IOException: io
				no-message | java.lang.RuntimeException
				npe | java.lang.NullPointerException
				interrupted | java.lang.InterruptedException: interrupted
				assertion | java.lang.AssertionError: assertion
				stack-overflow | java.lang.StackOverflowError
				out-of-memory | java.lang.OutOfMemoryError: out-of-memory
				linkage | java.lang.NoClassDefFoundError: linkage
				initializer | java.lang.ExceptionInInitializerError
				raw-throwable | java.lang.Throwable: raw-throwable
				huge-message | java.lang.IllegalArgumentException: xxxx
				""".lines().map((line) -> line.split(" \\| ", 2)).forEach((kv) -> expectedErrors.put(kv[0], kv[1]));
		Set<String> threads = ConcurrentHashMap.newKeySet();
		Ledger ledger = new Ledger();
		String prefix = Chaos.uniquePrefix();
		String queue = "throwing";
		try (ChaosWorker worker = new ChaosWorker(
				ChaosWorker.standalone(this.server.host(), this.server.port(), Duration.ofSeconds(5)),
				WorkerSettings.of(prefix).withEventListeners(ledger))) {
			Engine jobs = worker.jobs();
			QueueListenerContainer container = worker.register(queue, (job, context) -> {
				threads.add(Thread.currentThread().getName());
				behave(job.payload());
				ledger.ran(job.id());
			}, ListenerSettings.builder().concurrency(1).build());
			Map<String, JobId> failing = new LinkedHashMap<>();
			for (String kind : expectedErrors.keySet()) {
				failing.put(kind, jobs.enqueues().enqueue(queue, kind, EnqueueSpec.defaults().withMaxAttempts(1)));
			}
			JobId interruptsItself = jobs.enqueues().enqueue(queue, "sets-interrupt-flag", EnqueueSpec.defaults());
			List<JobId> good = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				good.add(jobs.enqueues().enqueue(queue, "good" + i, EnqueueSpec.defaults()));
			}
			worker.start();
			await("all handled").atMost(Duration.ofSeconds(30))
				.until(() -> ledger.ranAll(good) && Chaos.locations(jobs, queue).live() == 0);
			assertThat(container.isPollerAlive()).isTrue();
			assertThat(threads).as("one handler thread ran every job: none died").hasSize(1);
			assertThat(ledger.ran(interruptsItself.toString())).isTrue();
			Set<String> dead = Chaos.ids(jobs, queue, KeyType.DEAD);
			assertThat(dead)
				.containsExactlyInAnyOrderElementsOf(failing.values().stream().map(JobId::toString).toList());
			failing.forEach((kind, id) -> {
				String error = jobs.executor()
					.getTemplate()
					.<String, String>opsForHash()
					.get(jobs.keyspace().jobKey(queue, id), "last_error");
				assertThat(error).as(kind).startsWith(expectedErrors.get(kind));
				assertThat(error.length()).as(kind).isLessThanOrEqualTo(2048);
			});
			assertThat(container.getDeadCount()).isEqualTo(expectedErrors.size());
			worker.stop();
			AuditReport report = Chaos.audit(jobs, queue);
			assertThat(report.violations()).isEmpty();
			assertThat(report.total()).isEqualTo(expectedErrors.size());
			Chaos.report("handler-throwables", "server", Chaos.describe(this.server), "kinds", expectedErrors.size(),
					"dead", dead.size(), "completed", Chaos.metric(jobs, queue, "completed"), "handlerThreads",
					threads.size());
		}
	}

	@Test
	void eventListenerThrowingErrorsDoesNotStopJobs() {
		Ledger ledger = new Ledger();
		JobEventListener broken = new JobEventListener() {

			@Override
			public void onClaimed(ReceivedJob job, Duration wait) {
				throw new AssertionError("onClaimed");
			}

			@Override
			public void onCompleted(ReceivedJob job, Duration duration) {
				throw new StackOverflowError("onCompleted");
			}

			@Override
			public void onFailed(ReceivedJob job, Throwable error, TransitionResult result) {
				throw new IllegalStateException("onFailed");
			}

		};
		String queue = "broken-events";
		try (ChaosWorker worker = new ChaosWorker(
				ChaosWorker.standalone(this.server.host(), this.server.port(), Duration.ofSeconds(5)),
				WorkerSettings.of(Chaos.uniquePrefix()).withEventListeners(broken, ledger))) {
			Engine jobs = worker.jobs();
			QueueListenerContainer container = worker.register(queue, (job, context) -> {
				if (job.payload().equals("fail")) {
					throw new IllegalStateException("fail");
				}
				ledger.ran(job.id());
			});
			List<JobId> good = jobs.enqueues()
				.enqueueAll(queue, List.of("a", "b", "c", "d", "e"), EnqueueSpec.defaults());
			jobs.enqueues().enqueue(queue, "fail", EnqueueSpec.defaults().withMaxAttempts(1));
			worker.start();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> ledger.ranAll(good) && Chaos.locations(jobs, queue).live() == 0);
			assertThat(ledger.completions()).isEqualTo(good.size());
			assertThat(Chaos.locations(jobs, queue).dead()).isEqualTo(1);
			assertThat(container.isPollerAlive()).isTrue();
			worker.stop();
			assertThat(Chaos.audit(jobs, queue).violations()).isEmpty();
		}
	}

	@Test
	void unreadablePayloadsAreDeadLetteredWithTheReasonWhileGoodOnesComplete() {
		String prefix = Chaos.uniquePrefix();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=" + this.server.host(),
					"spring.data.redis.port=" + this.server.port(), "echomq.key-prefix=" + prefix,
					"echomq.shutdown.timeout=2s")
			.withUserConfiguration(OrderListener.class)
			.run((context) -> {
				Engine jobs = context.getBean(Engine.class);
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				OrderListener listener = context.getBean(OrderListener.class);
				List<JobId> good = new ArrayList<>();
				List<JobId> unreadable = new ArrayList<>();
				List<String> garbage = List.of("{not json", "[]", "\"text\"", "",
						"{\"sku\":\"a\",\"quantity\":\"many\"}", "\u0000\u0001binary", "{\"sku\":" + "[".repeat(2000));
				for (int i = 0; i < garbage.size(); i++) {
					good.add(template.enqueue("orders", new Order("sku" + i, i)));
					// written around the template, as another producer might
					unreadable.add(jobs.enqueues().enqueue("orders", garbage.get(i), EnqueueSpec.defaults()));
				}
				await().atMost(Duration.ofSeconds(30))
					.until(() -> Chaos.locations(jobs, "orders").live() == 0
							&& Chaos.locations(jobs, "orders").dead() == unreadable.size());
				assertThat(listener.orders).hasSize(good.size());
				for (JobId id : unreadable) {
					Map<String, String> row = jobs.executor()
						.getTemplate()
						.<String, String>opsForHash()
						.entries(jobs.keyspace().jobKey("orders", id));
					assertThat(row).containsEntry("state", "dead").containsEntry("attempts", "1");
					assertThat(row.get("last_error")).startsWith(UnreadablePayloadException.class.getName())
						.contains(OrderListener.class.getName());
				}
				QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("orders");
				assertThat(container.isPollerAlive()).isTrue();
				AuditReport report = Chaos.audit(jobs, "orders");
				assertThat(report.violations()).isEmpty();
				assertThat(report.total()).isEqualTo(unreadable.size());
			});
	}

	private static void behave(String kind) throws Exception {
		switch (kind) {
			case "runtime" -> throw new IllegalStateException(kind);
			case "checked" -> throw new Exception(kind);
			case "io" -> throw new IOException(kind);
			case "no-message" -> throw new RuntimeException();
			case "npe" -> {
				Object nothing = null;
				nothing.hashCode();
			}
			case "interrupted" -> throw new InterruptedException(kind);
			case "assertion" -> throw new AssertionError(kind);
			case "stack-overflow" -> recurse(0);
			case "out-of-memory" -> throw new OutOfMemoryError(kind);
			case "linkage" -> throw new NoClassDefFoundError(kind);
			case "initializer" -> throw new ExceptionInInitializerError(new IllegalStateException("static init"));
			case "raw-throwable" -> throw HandlerFailureTests.<RuntimeException>sneaky(new Throwable(kind));
			case "huge-message" -> throw new IllegalArgumentException("x".repeat(100_000));
			case "sets-interrupt-flag" -> Thread.currentThread().interrupt();
			default -> {
			}
		}
	}

	private static int recurse(int depth) {
		return recurse(depth + 1) + 1;
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T sneaky(Throwable throwable) throws T {
		throw (T) throwable;
	}

	static class OrderListener {

		final List<Order> orders = new java.util.concurrent.CopyOnWriteArrayList<>();

		@EchoJob(queue = "orders")
		void handle(Order order) {
			this.orders.add(order);
		}

	}

	record Order(String sku, int quantity) {

	}

}
