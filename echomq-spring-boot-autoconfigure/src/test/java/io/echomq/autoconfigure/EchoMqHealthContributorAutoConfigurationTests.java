package io.echomq.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import io.echomq.EchoMqTemplate;
import io.echomq.actuate.EchoMqHealthIndicator;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.ClaimResult;
import io.echomq.core.internal.Claims;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link EchoMqHealthContributorAutoConfiguration} and the
 * {@link EchoMqHealthIndicator} it creates, on a real server.
 *
 * @author EchoMQ
 */
class EchoMqHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = ObservabilityTestSupport
		.runner(EchoMqHealthContributorAutoConfiguration.class);

	@Test
	void runShouldCreateIndicator() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(EchoMqHealthIndicator.class)
			.hasBean("echomqHealthContributor"));
	}

	@Test
	void runWhenDisabledShouldNotCreateIndicator() {
		this.contextRunner.withPropertyValues("management.health.echomq.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(EchoMqHealthIndicator.class));
	}

	@Test
	void runWithoutHealthModuleShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(Engine.class)
				.doesNotHaveBean(EchoMqHealthIndicator.class));
	}

	@Test
	void healthShouldBeUpWithRunningListenersAndTickingScheduler() {
		String queue = ObservabilityTestSupport.unique("up");
		this.contextRunner.run((context) -> {
			context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> {
			});
			context.getBean(EchoMqTemplate.class).enqueue(queue, "x");
			EchoMqMaintenance scheduler = context.getBean(EchoMqMaintenance.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.getReapTicks() > 1);
			Health health = health(context);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(detail(health, "listeners", queue)).containsEntry("running", true)
				.containsEntry("paused", false)
				.containsEntry("pollerAlive", true);
			assertThat(detail(health, "maintenance")).containsEntry("running", true);
			assertThat(detail(health, "scripts")).containsEntry("total",
					context.getBean(Engine.class).scripts().size());
			assertThat(detail(health, "queues", queue)).containsKeys("pending", "dead", "reaped");
		});
	}

	@Test
	void pausedListenerShouldBeADetailNotAStatus() {
		String queue = ObservabilityTestSupport.unique("paused");
		this.contextRunner.run((context) -> {
			context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> {
			}).pause();
			Health health = health(context);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(detail(health, "listeners", queue)).containsEntry("paused", true);
		});
	}

	@Test
	void flushedScriptsShouldBeADetailNotAStatus() {
		this.contextRunner.run((context) -> {
			context.getBean(Engine.class).executor().getTemplate().execute((RedisCallback<Object>) (connection) -> {
				connection.scriptingCommands().scriptFlush();
				return null;
			});
			Health health = health(context);
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(detail(health, "scripts")).containsEntry("loaded", 0).containsKey("notLoaded");
		});
	}

	@Test
	void deadPollerShouldBeDown() {
		String queue = ObservabilityTestSupport.unique("dead-poller");
		this.contextRunner.withUserConfiguration(FailingClaimsConfiguration.class).run((context) -> {
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class)
				.register(queue, (job, jobContext) -> {
				});
			await().atMost(Duration.ofSeconds(5)).until(container::isPollerAlive);
			assertThat(health(context).getStatus()).isEqualTo(Status.UP);
			// an Error is not retried: the poller ends, as on an OutOfMemoryError in a
			// claim
			FailingClaims jobs = context.getBean(FailingClaims.class);
			jobs.failing = true;
			context.getBean(EchoMqTemplate.class).enqueue(queue, "wakes the poller");
			await().atMost(Duration.ofSeconds(10)).until(() -> !container.isPollerAlive());
			assertThat(jobs.thrown).isTrue();
			Health health = health(context);
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(detail(health, "listeners", queue)).containsEntry("running", true)
				.containsEntry("pollerAlive", false);
			assertThat(health.getDetails().get("problems")).asString().contains("poller", queue);
		});
	}

	@Test
	void stalledSchedulerShouldBeDown() {
		this.contextRunner.withPropertyValues("echomq.listener.auto-startup=false").run((context) -> {
			CountDownLatch stuck = new CountDownLatch(1);
			// every tick blocks before it reaches a queue, as on a hung connection
			EchoMqMaintenance scheduler = new EchoMqMaintenance(context.getBean(Engine.class),
					new MaintenanceSettings(Duration.ofMillis(50), Duration.ofMillis(50), 100, Duration.ofMillis(50)),
					() -> {
						block(stuck);
						return Set.of();
					}, EchoMqHealthContributorAutoConfigurationTests::ticks, List.of());
			EchoMqHealthIndicator indicator = new EchoMqHealthIndicator(context.getBean(QueueInspector.class),
					context.getBean(EchoMqQueueCatalog.class), null, scheduler, null);
			scheduler.start();
			try {
				assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
				await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health(true).getStatus() == Status.DOWN);
				assertThat(indicator.health(true).getDetails().get("problems")).asString()
					.contains("reap tick has not succeeded", "promote tick has not succeeded");
				stuck.countDown();
				await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health(true).getStatus() == Status.UP);
			}
			finally {
				stuck.countDown();
				scheduler.stop();
			}
		});
	}

	@Test
	void deadThresholdShouldTurnTheIndicatorDown() {
		String queue = ObservabilityTestSupport.unique("dead");
		this.contextRunner.withPropertyValues("echomq.health.dead-threshold=1").run((context) -> {
			assertThat(health(context).getStatus()).isEqualTo(Status.UP);
			context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> {
				throw new IllegalStateException("always");
			}, ListenerSettings.builder().maxAttempts(1).build());
			context.getBean(EchoMqTemplate.class).enqueue(queue, "doomed");
			await().atMost(Duration.ofSeconds(10)).until(() -> health(context).getStatus() == Status.DOWN);
			Health health = health(context);
			assertThat(detail(health, "queues", queue)).containsEntry("dead", 1L);
			assertThat(health.getDetails().get("problems")).asString().contains("1 dead jobs");
		});
	}

	private static Health health(AssertableApplicationContext context) {
		return context.getBean(EchoMqHealthIndicator.class).health(true);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> detail(Health health, String... path) {
		Object current = health.getDetails();
		for (String key : path) {
			current = ((Map<String, Object>) current).get(key);
		}
		assertThat(current).as(String.join(".", path)).isInstanceOf(Map.class);
		return (Map<String, Object>) current;
	}

	@Configuration(proxyBeanMethods = false)
	static class FailingClaimsConfiguration {

		// the engine is not a bean an application overrides: the test swaps in its own
		@Bean
		static BeanPostProcessor failingClaims() {
			return new BeanPostProcessor() {

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					return (bean instanceof Engine engine && !(bean instanceof FailingClaims))
							? new FailingClaims(engine.executor(), engine.keyspace()) : bean;
				}

			};
		}

	}

	static class FailingClaims extends Engine {

		volatile boolean failing;

		volatile boolean thrown;

		private final Claims claims;

		FailingClaims(ScriptExecutor executor, Keyspace keyspace) {
			super(executor, keyspace);
			this.claims = new Claims(super.claims()) {

				@Override
				public ClaimResult claim(String queue, Duration lease, int max, FlowLimits limits,
						@Nullable EchoMqNode owner) {
					if (FailingClaims.this.failing) {
						FailingClaims.this.thrown = true;
						throw new OutOfMemoryError("simulated: the poller's claim ran out of memory");
					}
					return super.claim(queue, lease, max, limits, owner);
				}

			};
		}

		@Override
		public Claims claims() {
			return this.claims;
		}

	}

	private static ThreadPoolTaskScheduler ticks() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setPoolSize(2);
		scheduler.setDaemon(true);
		scheduler.setThreadNamePrefix("stuck-ticks-");
		return scheduler;
	}

	private static void block(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
