package io.echomq.autoconfigure;

import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.actuate.EchoMqEndpoint;
import io.echomq.actuate.EchoMqEndpointWebExtension;
import io.echomq.actuate.EchoMqEndpointWebExtension.ErrorDescriptor;
import io.echomq.actuate.JobDescriptors;
import io.echomq.actuate.JobDescriptors.AuditDescriptor;
import io.echomq.actuate.JobDescriptors.CancelDescriptor;
import io.echomq.actuate.JobDescriptors.DeadJobsDescriptor;
import io.echomq.actuate.JobDescriptors.LaneDescriptor;
import io.echomq.actuate.JobDescriptors.PauseDescriptor;
import io.echomq.actuate.JobDescriptors.PurgeDescriptor;
import io.echomq.actuate.JobDescriptors.ReplayDescriptor;
import io.echomq.actuate.QueueDescriptors.LimitsDescriptor;
import io.echomq.actuate.QueueDescriptors.ListenerDescriptor;
import io.echomq.actuate.QueueDescriptors.QueueDescriptor;
import io.echomq.actuate.QueueDescriptors.QueuesDescriptor;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.LaneFullException;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link EchoMqEndpointAutoConfiguration} and the endpoint's operations, run on
 * the beans against a real server.
 *
 * @author EchoMQ
 */
class EchoMqEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = ObservabilityTestSupport
		.runner(EchoMqEndpointAutoConfiguration.class)
		.withPropertyValues("management.endpoints.web.exposure.include=echomq");

	@Test
	void runWhenExposedShouldCreateEndpointAndWebExtension() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(EchoMqEndpoint.class)
			.hasSingleBean(EchoMqEndpointWebExtension.class));
	}

	@Test
	void runWhenNotExposedShouldNotCreateEndpoint() {
		ObservabilityTestSupport.runner(EchoMqEndpointAutoConfiguration.class)
			.run((context) -> assertThat(context).doesNotHaveBean(EchoMqEndpoint.class)
				.doesNotHaveBean(EchoMqEndpointWebExtension.class));
	}

	@Test
	void runWhenAccessIsNoneShouldNotCreateEndpoint() {
		this.contextRunner.withPropertyValues("management.endpoint.echomq.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(EchoMqEndpoint.class));
	}

	@Test
	void runWithoutActuatorShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(EchoMqTemplate.class)
				.doesNotHaveBean(EchoMqEndpoint.class));
	}

	@Test
	void queuesShouldListListenerConfiguredAndEnqueuedQueues() {
		String listened = ObservabilityTestSupport.unique("listened");
		String configured = ObservabilityTestSupport.unique("configured");
		String enqueued = ObservabilityTestSupport.unique("enqueued");
		this.contextRunner.withPropertyValues("echomq.queues." + configured + ".max-attempts=7").run((context) -> {
			context.getBean(EchoJobListenerRegistry.class).register(listened, (job, jobContext) -> {
			}, ListenerSettings.builder().concurrency(2).build());
			context.getBean(EchoMqTemplate.class).enqueueAll(enqueued, List.of("a", "b"));
			QueuesDescriptor queues = context.getBean(EchoMqEndpoint.class).queues();
			assertThat(queues.queues()).containsKeys(listened, configured, enqueued);
			assertThat(queues.queues().get(enqueued).pending()).isEqualTo(2);
			assertThat(queues.queues().get(enqueued).counters()).containsEntry("enqueued", 2L);
			assertThat(queues.queues().get(enqueued).listener()).isNull();
			assertThat(queues.queues().get(configured).maxAttempts()).isEqualTo(7);
			ListenerDescriptor listener = queues.queues().get(listened).listener();
			assertThat(listener).isNotNull();
			assertThat(listener.concurrency()).isEqualTo(2);
			assertThat(listener.running()).isTrue();
			assertThat(listener.paused()).isFalse();
			assertThat(listener.inFlight()).isZero();
		});
	}

	@Test
	void queueShouldAnswerNotFoundForAnUnknownQueueAndBadRequestForABadName() {
		String known = ObservabilityTestSupport.unique("known");
		this.contextRunner.run((context) -> {
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			context.getBean(EchoMqTemplate.class).enqueue(known, "x");
			WebEndpointResponse<Object> found = web.queue("queues", known);
			assertThat(found.getStatus()).isEqualTo(200);
			assertThat(found.getBody()).isInstanceOfSatisfying(QueueDescriptor.class,
					(queue) -> assertThat(queue.pending()).isEqualTo(1));
			assertError(web.queue("queues", ObservabilityTestSupport.unique("nothing")), 404, "is not known here");
			assertError(web.queue("queues", "a:b"), 400, "a:b");
			assertError(web.queue("jobs", known), 404, "try 'queues'");
		});
	}

	@Test
	void deadJobsShouldBePagedWithPayloadsSanitizedUnlessShown() {
		String queue = ObservabilityTestSupport.unique("dead-page");
		this.contextRunner.run((context) -> {
			killThree(context, queue);
			EchoMqEndpointWebExtension hidden = context.getBean(EchoMqEndpointWebExtension.class);
			DeadJobsDescriptor page = body(hidden.queueDetail(SecurityContext.NONE, "queues", queue, "dead", 1, 1),
					DeadJobsDescriptor.class);
			assertThat(page.total()).isEqualTo(3);
			assertThat(page.jobs()).hasSize(1);
			assertThat(page.jobs().get(0).payload()).isEqualTo("******");
			assertThat(page.jobs().get(0).lastError()).contains("card declined");
			assertThat(page.jobs().get(0).deadAt()).isNotNull();
			assertThat(body(hidden.queueDetail(SecurityContext.NONE, "queues", queue, "dead", null, null),
					DeadJobsDescriptor.class)
				.jobs()).hasSize(3);
			assertError(hidden.queueDetail(SecurityContext.NONE, "queues", queue, "dead", -1, null), 400, "offset");
			assertError(hidden.queueDetail(SecurityContext.NONE, "queues", queue, "dead", 0, 1000), 400, "limit");
		});
		this.contextRunner
			.withPropertyValues("management.endpoint.echomq.show-values=when-authorized",
					"management.endpoint.echomq.roles=ops")
			.run((context) -> {
				killThree(context, queue + "-2");
				EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
				assertThat(body(web.queueDetail(new Authenticated("ops"), "queues", queue + "-2", "dead", 0, 5),
						DeadJobsDescriptor.class)
					.jobs()).extracting((job) -> job.payload()).containsOnly("\"card\"");
				assertThat(body(web.queueDetail(new Authenticated("guest"), "queues", queue + "-2", "dead", 0, 5),
						DeadJobsDescriptor.class)
					.jobs()).extracting((job) -> job.payload()).containsOnly("******");
			});
	}

	@Test
	void replayShouldMoveADeadJobToPendingWithTheConfiguredBudget() {
		String queue = ObservabilityTestSupport.unique("replay");
		this.contextRunner.withPropertyValues("echomq.queues." + queue + ".max-attempts=2").run((context) -> {
			List<JobId> dead = killThree(context, queue, ListenerSettings.inherit());
			context.getBean(EchoJobListenerRegistry.class).getContainer(queue).pause();
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			String id = dead.get(0).toString();
			ReplayDescriptor replay = body(web.jobAction("queues", queue, "dead", id, "replay", null),
					ReplayDescriptor.class);
			assertThat(replay.replayed()).isTrue();
			assertThat(replay.state()).isEqualTo("pending");
			assertThat(replay.maxAttempts()).isEqualTo(2);
			QueueDescriptor after = context.getBean(EchoMqEndpoint.class).queue(queue);
			assertThat(after.pending()).isEqualTo(1);
			assertThat(after.dead()).isEqualTo(2);
			assertError(web.jobAction("queues", queue, "dead", id, "replay", null), 409, "is pending, not dead");
			assertError(web.jobAction("queues", queue, "dead", "JOB' OR 1=1", "replay", null), 400, "Invalid JOB id");
			assertError(web.jobAction("queues", queue, "dead", id.substring(0, id.length() - 1) + "!", "replay", null),
					400, "Invalid JOB id");
			assertError(web.jobAction("queues", queue, "dead", JobId.mint().toString(), "replay", null), 404,
					"has no job");
			assertError(web.jobAction("queues", queue, "dead", id, "resurrect", null), 404, "replay");
		});
	}

	@Test
	void purgeShouldDeleteTheDeadJobs() {
		String queue = ObservabilityTestSupport.unique("purge");
		this.contextRunner.run((context) -> {
			killThree(context, queue);
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			assertThat(body(web.purge("queues", queue, "dead"), PurgeDescriptor.class).purged()).isEqualTo(3);
			assertThat(context.getBean(EchoMqEndpoint.class).queue(queue).dead()).isZero();
			assertThat(body(web.purge("queues", queue, "dead"), PurgeDescriptor.class).purged()).isZero();
			assertAuditClean(web, queue);
		});
	}

	@Test
	void pauseAndResumeShouldControlTheListener() {
		String queue = ObservabilityTestSupport.unique("control");
		this.contextRunner.run((context) -> {
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
				.register(queue, (job, jobContext) -> {
				});
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			assertThat(body(web.control("queues", queue, "pause", null, null, null), ListenerDescriptor.class).paused())
				.isTrue();
			assertThat(container.isPaused()).isTrue();
			context.getBean(EchoMqTemplate.class).enqueue(queue, "waits");
			// a claim already on the wire when pause() returned hands its job back to
			// pending
			await().atMost(Duration.ofSeconds(10))
				.until(() -> context.getBean(EchoMqEndpoint.class).queue(queue).pending() == 1);
			assertThat(context.getBean(EchoMqEndpoint.class).queue(queue).counters()).doesNotContainKey("completed");
			assertThat(
					body(web.control("queues", queue, "resume", null, null, null), ListenerDescriptor.class).paused())
				.isFalse();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> context.getBean(EchoMqEndpoint.class).queue(queue).counters().get("completed"),
						(completed) -> completed != null && completed == 1L);
			assertError(web.control("queues", ObservabilityTestSupport.unique("none"), "pause", null, null, null), 404,
					"no listener");
			assertError(web.control("queues", queue, "stop", null, null, null), 404,
					"try 'pause', 'resume' or 'limits'");
		});
	}

	@Test
	void queueShouldShowItsLanesAndEachLimitWithItsCurrentUse() {
		String queue = ObservabilityTestSupport.unique("flow");
		this.contextRunner.withPropertyValues(ObservabilityTestSupport.flowLimits(queue)).run((context) -> {
			EchoMqEndpoint endpoint = context.getBean(EchoMqEndpoint.class);
			CountDownLatch release = ObservabilityTestSupport.holdAtCap(context, queue);
			try {
				QueueDescriptor held = endpoint.queue(queue);
				assertThat(held.laneCount()).isOne();
				assertThat(held.lanes()).containsExactly(Map.entry("a", 1L));
				assertThat(held.pending()).isOne();
				assertThat(held.active()).as("the max-active cap's current use").isEqualTo(2);
				LimitsDescriptor limits = held.limits();
				assertThat(limits).isNotNull();
				assertThat(limits.maxActive()).isEqualTo(2);
				assertThat(limits.rateLimit()).isEqualTo(100);
				assertThat(limits.ratePeriod()).isEqualTo(Duration.ofHours(1));
				assertThat(limits.laneMaxActive()).isNull();
				assertThat(limits.startedInWindow()).isEqualTo(2);
			}
			finally {
				release.countDown();
			}
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				QueueDescriptor drained = endpoint.queue(queue);
				assertThat(drained.counters()).containsEntry("completed", 3L);
				assertThat(drained.laneCount()).isZero();
				assertThat(drained.lanes()).isEmpty();
				assertThat(drained.limits().startedInWindow()).isEqualTo(3);
			});
		});
	}

	@Test
	void cancelShouldRemoveAJobAndSayWhatItDid() {
		String queue = ObservabilityTestSupport.unique("cancel");
		ObservabilityTestSupport
			.runner(EchoMqEndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
					EchoMqMetricsAutoConfiguration.class)
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("management.endpoints.web.exposure.include=echomq")
			.run((context) -> {
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				String id = template.enqueue(queue, "x", EnqueueOptions.defaults().withDelay(Duration.ofHours(1)))
					.toString();
				EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
				CancelDescriptor cancel = body(web.jobAction("queues", queue, "jobs", id, "cancel", null),
						CancelDescriptor.class);
				assertThat(cancel.outcome()).isEqualTo("cancelled");
				assertThat(cancel.state()).isEqualTo("schedule");
				QueueDescriptor afterCancel = context.getBean(EchoMqEndpoint.class).queue(queue);
				assertThat(afterCancel.schedule()).isZero();
				assertThat(afterCancel.counters()).containsEntry("cancelled", 1L);
				assertError(web.jobAction("queues", queue, "jobs", id, "cancel", null), 404, "has no job");
				assertError(web.jobAction("queues", queue, "jobs", "JOB' OR 1=1", "cancel", null), 400,
						"Invalid JOB id");
				assertError(web.jobAction("queues", queue, "jobs", id, "delete", null), 404, "cancel");
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("echomq.jobs.cancelled")
					.tags("queue", queue, "outcome", "cancelled")
					.counter()
					.count()).isEqualTo(1);
				assertThat(registry.get("echomq.jobs.cancelled")
					.tags("queue", queue, "outcome", "not_found")
					.counter()
					.count()).isEqualTo(1);
				assertAuditClean(web, queue);
			});
	}

	@Test
	void clusterScopedPauseShouldSetTheQueuesFlag() {
		String queue = ObservabilityTestSupport.unique("cluster-pause");
		this.contextRunner.run((context) -> {
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			EchoMqAdmin admin = context.getBean(EchoMqAdmin.class);
			PauseDescriptor paused = body(web.control("queues", queue, "pause", "cluster", "10m", null),
					PauseDescriptor.class);
			assertThat(paused.paused()).isTrue();
			assertThat(paused.changed()).isTrue();
			assertThat(paused.remainingMillis()).isGreaterThan(Duration.ofMinutes(9).toMillis());
			assertThat(admin.isPaused(queue)).isTrue();
			template.enqueue(queue, "x");
			assertThat(context.getBean(EchoMqEndpoint.class).queue(queue).paused()).isTrue();
			PauseDescriptor indefinite = body(web.control("queues", queue, "pause", "cluster", null, null),
					PauseDescriptor.class);
			assertThat(indefinite.remainingMillis()).isNull();
			PauseDescriptor resumed = body(web.control("queues", queue, "resume", "cluster", null, null),
					PauseDescriptor.class);
			assertThat(resumed.paused()).isFalse();
			assertThat(resumed.changed()).isTrue();
			assertThat(admin.isPaused(queue)).isFalse();
			assertError(web.control("queues", queue, "pause", "cluster", "soon", null), 400, "soon");
			assertError(web.control("queues", queue, "pause", "cluster", "0s", null), 400, "at least 1ms");
			assertError(web.control("queues", queue, "pause", "galaxy", null, null), 400, "No such scope 'galaxy'");
			assertThat(admin.isPaused(queue)).isFalse();
		});
	}

	@Test
	void laneWritesShouldPauseResumeCapAndLimitOneLane() {
		String queue = ObservabilityTestSupport.unique("lane-controls");
		this.contextRunner.run((context) -> {
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			LaneDescriptor paused = body(
					web.jobAction("queues", queue, "lanes", "a", "pause", null, null, null, null, "test"),
					LaneDescriptor.class);
			assertThat(paused.paused()).isTrue();
			assertThat(paused.changed()).isTrue();
			LaneDescriptor capped = body(
					web.jobAction("queues", queue, "lanes", "a", "cap", 1L, null, null, null, null),
					LaneDescriptor.class);
			assertThat(capped.pendingCap()).isEqualTo(1L);
			template.enqueue(queue, "x", EnqueueOptions.defaults().withLane("a"));
			assertThatExceptionOfType(LaneFullException.class)
				.isThrownBy(() -> template.enqueue(queue, "y", EnqueueOptions.defaults().withLane("a")))
				.withMessageContaining("Lane 'a' of queue '" + queue + "' holds 1 pending jobs of its cap of 1");
			assertThat(body(web.job(SecurityContext.NONE, "queues", queue, "lanes", "a"), LaneDescriptor.class))
				.isEqualTo(new LaneDescriptor(queue, "a", true, 1L, 1, null, null, null, false));
			assertError(web.jobAction("queues", queue, "lanes", "a", "cap", 0L, null, null, null, null), 400,
					"at least 1, was 0");
			assertError(web.jobAction("queues", queue, "lanes", "a", "cap", null, null, null, null, null), 400,
					"needs a 'cap'");
			assertError(web.jobAction("queues", queue, "lanes", "a:b", "pause", null, null, null, null, null), 400,
					"'a:b'");
			assertError(web.jobAction("queues", queue, "lanes", "a", "stop", null, null, null, null, null), 404,
					"try 'pause'");
			assertThat(body(web.jobAction("queues", queue, "lanes", "a", "uncap", null, null, null, null, null),
					LaneDescriptor.class)
				.pendingCap()).isNull();
			LaneDescriptor resumed = body(
					web.jobAction("queues", queue, "lanes", "a", "resume", null, null, null, null, null),
					LaneDescriptor.class);
			assertThat(resumed.paused()).isFalse();
			assertThat(resumed.pending()).isOne();
			LaneDescriptor limited = body(web.jobAction("queues", queue, "lanes", "a", "limit", null, 2, 5, "1s", null),
					LaneDescriptor.class);
			assertThat(limited)
				.extracting(LaneDescriptor::maxActive, LaneDescriptor::rateLimit, LaneDescriptor::period,
						LaneDescriptor::changed)
				.containsExactly(2, 5, "PT1S", true);
			assertError(web.jobAction("queues", queue, "lanes", "a", "limit", null, null, 5, null, null), 400,
					"rateLimit and period go together");
			assertError(web.jobAction("queues", queue, "lanes", "a", "limit", null, null, null, null, null), 400,
					"needs 'maxActive'");
			assertThat(body(web.jobAction("queues", queue, "lanes", "a", "unlimit", null, null, null, null, null),
					LaneDescriptor.class))
				.extracting(LaneDescriptor::maxActive, LaneDescriptor::rateLimit, LaneDescriptor::changed)
				.containsExactly(null, null, true);
		});
	}

	@Test
	void auditShouldReportAForgedIdInADeadSet() {
		String queue = ObservabilityTestSupport.unique("audit");
		this.contextRunner.run((context) -> {
			context.getBean(EchoMqTemplate.class).enqueue(queue, "x");
			Engine jobs = context.getBean(Engine.class);
			jobs.executor()
				.getTemplate()
				.opsForZSet()
				.add(jobs.keyspace().queueKey(queue, KeyType.DEAD.suffix()), "forged", 1);
			AuditDescriptor audit = context.getBean(EchoMqEndpoint.class).audit(queue);
			assertThat(audit.clean()).isFalse();
			assertThat(audit.counts()).containsEntry("pending", 1L).containsEntry("dead", 1L);
			assertThat(audit.violations()).anySatisfy((violation) -> assertThat(violation).contains("forged"));
		});
	}

	private static List<JobId> killThree(AssertableApplicationContext context, String queue) {
		return killThree(context, queue, ListenerSettings.builder().maxAttempts(1).build());
	}

	private static List<JobId> killThree(AssertableApplicationContext context, String queue,
			ListenerSettings settings) {
		EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
		QueueListenerContainer container = registry.register(queue, (job, jobContext) -> {
			throw new IllegalStateException("card declined");
		}, settings);
		List<JobId> ids = context.getBean(EchoMqTemplate.class).enqueueAll(queue, List.of("card", "card", "card"));
		await().atMost(Duration.ofSeconds(10)).until(container::getDeadCount, (dead) -> dead == 3);
		return ids;
	}

	private static void assertAuditClean(EchoMqEndpointWebExtension web, String queue) {
		assertThat(
				body(web.queueDetail(SecurityContext.NONE, "queues", queue, "audit", null, null), AuditDescriptor.class)
					.clean())
			.isTrue();
	}

	private static <T> T body(WebEndpointResponse<Object> response, Class<T> type) {
		assertThat(response.getStatus()).as("status of %s", response.getBody()).isEqualTo(200);
		assertThat(response.getBody()).isInstanceOf(type);
		return type.cast(response.getBody());
	}

	private static void assertError(WebEndpointResponse<Object> response, int status, String message) {
		assertThat(response.getStatus()).isEqualTo(status);
		assertThat(response.getBody()).isInstanceOfSatisfying(ErrorDescriptor.class, (error) -> {
			assertThat(error.status()).isEqualTo(status);
			assertThat(error.message()).contains(message);
		});
	}

	private record Authenticated(String role) implements SecurityContext {

		@Override
		public @Nullable Principal getPrincipal() {
			return () -> "user";
		}

		@Override
		public boolean isUserInRole(String role) {
			return this.role.equals(role);
		}

	}

}
