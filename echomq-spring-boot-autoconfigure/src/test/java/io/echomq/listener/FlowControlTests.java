package io.echomq.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.annotation.EchoJob;
import io.echomq.core.CancelResult;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.InvalidJobIdException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.QueueAuditor;
import io.echomq.test.TestServer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Flow control with running listeners on a real server: a running job cancelled (its
 * handler interrupted, its outcome discarded), a queue paused cluster-wide from another
 * application context and resumed, and a handler rate-limited by its remote side.
 *
 * @author EchoMQ
 */
class FlowControlTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private final String prefix = ListenerTestSupport.uniquePrefix();

	@Test
	void cancelOfARunningJobInterruptsItsHandlerAndDiscardsTheOutcome() {
		worker().withPropertyValues("echomq.queues.cancellable.lease=900ms").run((context) -> {
			Handlers handlers = context.getBean(Handlers.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			JobId id = template.enqueue("cancellable", "x", EnqueueOptions.defaults().withMaxAttempts(1));
			assertThat(handlers.started.await(10, TimeUnit.SECONDS)).isTrue();
			CancelResult result = context.getBean(EchoMqAdmin.class).cancel("cancellable", id.toString());
			assertThat(result.outcome()).isEqualTo(CancelResult.Outcome.REQUESTED);
			assertThat(result.state()).isEqualTo(JobState.ACTIVE);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
				.getContainer("cancellable");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(Duration.ofSeconds(10)).until(() -> container.getCancelledCount() == 1);
				assertThat(handlers.cancelledSeen.get()).isTrue();
				assertThat(probe.row("cancellable", id)).isEmpty();
				for (KeyType location : List.of(KeyType.PENDING, KeyType.ACTIVE, KeyType.SCHEDULE, KeyType.DEAD)) {
					assertThat(probe.members("cancellable", location)).doesNotContain(id.toString());
				}
				Map<String, String> metrics = probe.metrics("cancellable");
				assertThat(metrics).containsEntry("cancel_requested", "1")
					.containsEntry("cancelled", "1")
					.doesNotContainKeys("completed", "retried", "dead");
			}
			assertThat(container.getCompletedCount()).isZero();
			assertThat(container.getStaleCount()).isZero();
			assertThat(context.getBean(EchoMqAdmin.class).cancel("cancellable", id).outcome())
				.isEqualTo(CancelResult.Outcome.NOT_FOUND);
			AuditReport audit = new QueueAuditor(context.getBean(Engine.class)).audit("cancellable",
					Duration.ofSeconds(5));
			assertThat(audit.violations()).isEmpty();
		});
	}

	@Test
	void cancelWithAMalformedIdFailsBeforeAnyWrite() {
		ListenerTestSupport.runner(server, this.prefix).run((context) -> {
			EchoMqAdmin admin = context.getBean(EchoMqAdmin.class);
			assertThatExceptionOfType(InvalidJobIdException.class).isThrownBy(() -> admin.cancel("q", "JOB' OR 1"))
				.withMessageContaining("JOB' OR 1");
			assertThatIllegalArgumentException().isThrownBy(() -> admin.pause("q", Duration.ZERO))
				.withMessageContaining("PT0S");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				assertThat(probe.metrics("q")).isEmpty();
				assertThat(probe.template().hasKey(this.prefix + ":{q}:paused")).isFalse();
			}
		});
	}

	@Test
	void pauseFromAnotherContextStopsClaimsAndResumeRestartsThemAtOnce() {
		// an idle wait far longer than the test: only the resume's wake-up can start the
		// job
		worker().withPropertyValues("echomq.queues.gated.idle-wait=60s").run((workerContext) -> {
			Handlers handlers = workerContext.getBean(Handlers.class);
			QueueListenerContainer container = workerContext.getBean(EchoJobListenerRegistry.class)
				.getContainer("gated");
			ListenerTestSupport.runner(server, this.prefix).run((controlContext) -> {
				EchoMqTemplate control = controlContext.getBean(EchoMqTemplate.class);
				EchoMqAdmin controlAdmin = controlContext.getBean(EchoMqAdmin.class);
				assertThat(controlAdmin.pause("gated")).isTrue();
				assertThat(workerContext.getBean(EchoMqAdmin.class).isPaused("gated")).isTrue();
				JobId id = control.enqueue("gated", "x");
				try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
					await().during(Duration.ofSeconds(2))
						.atMost(Duration.ofSeconds(4))
						.until(() -> "pending".equals(probe.row("gated", id).get("state")));
				}
				assertThat(handlers.gated).isEmpty();
				assertThat(container.isPaused()).isFalse();
				long resumed = System.nanoTime();
				assertThat(controlAdmin.resume("gated")).isTrue();
				await().atMost(Duration.ofSeconds(5)).until(() -> handlers.gated.contains(id));
				Duration took = Duration.ofNanos(System.nanoTime() - resumed);
				assertThat(took).isLessThan(Duration.ofSeconds(5));
				assertThat(controlAdmin.isPaused("gated")).isFalse();
			});
		});
	}

	@Test
	void rateLimitedHandlerRunsAgainWithoutSpendingAnAttemptAndPausesTheQueue() {
		worker().run((context) -> {
			Handlers handlers = context.getBean(Handlers.class);
			JobId id = ListenerTestSupport.enqueueWithOneAttempt(context, "limited");
			try (ListenerTestSupport.Probe probe = new ListenerTestSupport.Probe(server, this.prefix)) {
				await().atMost(Duration.ofSeconds(15)).until(() -> probe.row("limited", id).isEmpty());
				assertThat(probe.metrics("limited")).containsEntry("snoozed", "1")
					.containsEntry("completed", "1")
					.doesNotContainKeys("dead", "retried");
			}
			assertThat(handlers.limitedAttempts).containsExactly(1L, 1L);
			Duration pauseSeen = handlers.pauseAtSnooze.get();
			assertThat(pauseSeen).isNotNull().isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofSeconds(3));
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("limited");
			assertThat(container.getSnoozedCount()).isEqualTo(1);
			assertThat(container.getDeadCount()).isZero();
		});
	}

	@Test
	void rateLimitedExceptionRejectsANonPositiveRetryAfter() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RateLimitedJobException(Duration.ZERO, true))
			.withMessageContaining("PT0S");
		assertThatIllegalArgumentException().isThrownBy(() -> new RateLimitedJobException(Duration.ofSeconds(-1)))
			.withMessageContaining("PT-1S");
	}

	private ApplicationContextRunner worker() {
		return ListenerTestSupport.runner(server, this.prefix)
			.withBean(Handlers.class)
			.withPropertyValues("echomq.listener.backoff.initial=30s");
	}

	static class Handlers implements JobEventListener {

		final CountDownLatch started = new CountDownLatch(1);

		final AtomicBoolean cancelledSeen = new AtomicBoolean();

		final List<JobId> gated = new CopyOnWriteArrayList<>();

		final List<Long> limitedAttempts = new CopyOnWriteArrayList<>();

		final AtomicReference<@Nullable Duration> pauseAtSnooze = new AtomicReference<>();

		private final ObjectProvider<Engine> jobs;

		Handlers(ObjectProvider<Engine> jobs) {
			this.jobs = jobs;
		}

		@EchoJob(queue = "cancellable")
		void cancellable(String payload, JobContext context) {
			this.started.countDown();
			try {
				new CountDownLatch(1).await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				this.cancelledSeen.set(context.isCancelled());
				// returns normally: a completion that must be discarded
			}
		}

		@EchoJob(queue = "gated")
		void gated(String payload, JobContext context) {
			this.gated.add(context.id());
		}

		@EchoJob(queue = "limited")
		void limited(String payload, JobContext context) {
			this.limitedAttempts.add(context.attempt());
			if (this.limitedAttempts.size() == 1) {
				throw new RateLimitedJobException(Duration.ofSeconds(3), true);
			}
		}

		@Override
		public void onSnoozed(ReceivedJob job, Duration delay) {
			this.pauseAtSnooze.set(this.jobs.getObject().admin().pauseLeft(job.queue()));
		}

	}

}
