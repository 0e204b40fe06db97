package io.echomq.listener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.autoconfigure.EchoJobListenerContainerFactoryConfigurer;
import io.echomq.autoconfigure.EchoMqProperties;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Which failures are retried: {@code retryFor} / {@code noRetryFor} on the annotation and
 * in properties, classified along the cause chain, and {@link NonRetryableJobException};
 * handlers that run past their timeout.
 *
 * @author EchoMQ
 */
class RetryRulesTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void noRetryForMatchesACauseAndDeadLettersAtOnce() {
		assertOneRetriedOneDead("no-retry", "ise", "wrapped-iae", "wrapper");
	}

	@Test
	void retryForRetriesOnlyWhatItNames() {
		assertOneRetriedOneDead("retry-io", "io", "ise", "IllegalStateException");
	}

	@Test
	void nonRetryableJobExceptionDeadLettersAtOnce() {
		runner().run((context) -> {
			JobId id = context.getBean(EchoMqTemplate.class).enqueue("fatal", "x");
			assertDead("fatal", id, "1", "account closed");
		});
	}

	@Test
	void noRetryForFromQueueProperties() {
		runner().withPropertyValues("echomq.queues.by-property.no-retry-for=java.lang.IllegalStateException")
			.run((context) -> {
				JobId id = context.getBean(EchoMqTemplate.class).enqueue("by-property", "ise");
				assertDead("by-property", id, "1", "IllegalStateException");
			});
	}

	@Test
	void handlerPastItsTimeoutIsInterruptedAndTheAttemptFails() {
		runner().withPropertyValues("echomq.listener.backoff.initial=0s").run((context) -> {
			Handlers handlers = context.getBean(Handlers.class);
			JobId id = context.getBean(EchoMqTemplate.class)
				.enqueue("slow", "x", EnqueueOptions.defaults().withMaxAttempts(2));
			assertDead("slow", id, "2", "JobTimeoutException: Handler timed out after PT0.3S");
			assertThat(handlers.interrupted).hasValue(2);
		});
	}

	@Test
	void handlerWhoseDeadlinePassedBeforeItsThreadStartedIsInterruptedAtOnce() {
		runner().withUserConfiguration(LateStartConfiguration.class).run((context) -> {
			JobId id = ListenerTestSupport.enqueueWithOneAttempt(context, "slow");
			assertDead("slow", id, "1", "JobTimeoutException: Handler timed out after PT0.3S");
			assertThat(context.getBean(Handlers.class).interrupted).hasValue(1);
		});
	}

	@Test
	void timeoutFromQueueProperties() {
		runner().withPropertyValues("echomq.queues.slow-by-property.timeout=200ms").run((context) -> {
			JobId id = ListenerTestSupport.enqueueWithOneAttempt(context, "slow-by-property");
			assertDead("slow-by-property", id, "1", "timed out after PT0.2S");
			assertThat(context.getBean(Handlers.class).interrupted).hasValue(1);
		});
	}

	@Test
	void jobsOwnTimeoutWinsOverTheListeners() {
		runner().run((context) -> {
			JobId id = context.getBean(EchoMqTemplate.class)
				.enqueue("slow-by-property", "x",
						EnqueueOptions.defaults().withMaxAttempts(1).withTimeout(Duration.ofMillis(250)));
			assertDead("slow-by-property", id, "1", "timed out after PT0.25S");
			assertThat(context.getBean(Handlers.class).interrupted).hasValue(1);
		});
	}

	@Test
	void snoozedJobRunsAgainWithoutSpendingAnAttempt() {
		runner().run((context) -> {
			Handlers handlers = context.getBean(Handlers.class);
			JobId id = ListenerTestSupport.enqueueWithOneAttempt(context, "snoozing");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(Duration.ofSeconds(10)).until(() -> probe.row("snoozing", id).isEmpty());
				assertThat(probe.metrics("snoozing")).containsEntry("snoozed", "2").containsEntry("completed", "1");
			}
			assertThat(handlers.snoozeAttempts).containsExactly(1L, 1L, 1L);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("snoozing");
			assertThat(container.getSnoozedCount()).isEqualTo(2);
			assertThat(container.getDeadCount()).isZero();
		});
	}

	private void assertOneRetriedOneDead(String queue, String retriedPayload, String deadPayload, String error) {
		runner().run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId retried = template.enqueue(queue, retriedPayload);
			JobId dead = template.enqueue(queue, deadPayload);
			assertThat(awaitRow(queue, retried, "schedule")).containsEntry("attempts", "1");
			assertDead(queue, dead, "1", error);
		});
	}

	private void assertDead(String queue, JobId id, String attempts, String error) {
		Map<String, String> row = awaitRow(queue, id, "dead");
		assertThat(row).containsEntry("attempts", attempts);
		assertThat(row.get("last_error")).contains(error);
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			assertThat(probe.members(queue, KeyType.DEAD)).contains(id.toString());
		}
	}

	private Map<String, String> awaitRow(String queue, JobId id, String state) {
		try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
			await().atMost(Duration.ofSeconds(10)).until(() -> state.equals(probe.row(queue, id).get("state")));
			return probe.row(queue, id);
		}
	}

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withBean(Handlers.class, Handlers::new)
			.withPropertyValues("echomq.listener.backoff.initial=30s");
	}

	@Configuration(proxyBeanMethods = false)
	static class LateStartConfiguration {

		// a busy machine: each worker thread starts a second after its claim, well past
		// the
		// 300 ms deadline; the handler must start interrupted rather than block for 30 s
		@Bean
		EchoJobListenerContainerFactoryConfigurer lateStartConfigurer(EchoMqProperties properties) {
			JobExecutorFactory lateStart = (queue, concurrency) -> {
				TaskExecutor threads = JobExecutorFactory.platformThreads().createExecutor(queue, concurrency);
				return (task) -> threads.execute(() -> {
					LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
					task.run();
				});
			};
			return new EchoJobListenerContainerFactoryConfigurer(properties, lateStart, List.of());
		}

	}

	static class Handlers {

		final AtomicInteger interrupted = new AtomicInteger();

		final List<Long> snoozeAttempts = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "snoozing")
		void snoozing(String payload, JobContext context) {
			this.snoozeAttempts.add(context.attempt());
			if (this.snoozeAttempts.size() < 3) {
				throw new IllegalStateException("wrapped", new SnoozeJobException(Duration.ofMillis(100), "not yet"));
			}
		}

		@EchoJob(queue = "slow", timeout = "300ms")
		void slow(String payload) throws InterruptedException {
			block();
		}

		@EchoJob(queue = "slow-by-property")
		void slowByProperty(String payload) throws InterruptedException {
			block();
		}

		private void block() throws InterruptedException {
			try {
				new CountDownLatch(1).await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				this.interrupted.incrementAndGet();
				throw ex;
			}
		}

		@EchoJob(queue = "no-retry", noRetryFor = IllegalArgumentException.class)
		void noRetry(String payload) {
			if (payload.equals("wrapped-iae")) {
				throw new IllegalStateException("wrapper", new IllegalArgumentException("bad argument"));
			}
			throw new UnsupportedOperationException("retry me");
		}

		@EchoJob(queue = "retry-io", retryFor = IOException.class)
		void retryIo(String payload) {
			if (payload.equals("io")) {
				throw new UncheckedIOException(new IOException("connection reset"));
			}
			throw new IllegalStateException("not an I/O failure");
		}

		@EchoJob(queue = "fatal")
		void fatal(String payload) {
			throw new NonRetryableJobException("account closed");
		}

		@EchoJob(queue = "by-property")
		void byProperty(String payload) {
			throw new IllegalStateException("never retried by configuration");
		}

	}

}
