package io.echomq.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.echomq.EchoMqTemplate;
import io.echomq.actuate.EchoMqEndpoint;
import io.echomq.actuate.EchoMqEndpointWebExtension;
import io.echomq.actuate.ScheduleDescriptors.ScheduleDescriptor;
import io.echomq.actuate.ScheduleDescriptors.TriggerDescriptor;
import io.echomq.annotation.EchoSchedule;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.autoconfigure.EchoMqEndpointAutoConfiguration;
import io.echomq.autoconfigure.EchoMqMetricsAutoConfiguration;
import io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;
import io.echomq.micrometer.EchoMqScheduleMetrics;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.internal.ScheduleTicker;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Schedules declared by annotation and properties on a real server: start-up puts them in
 * the store and removes the declared ones no longer declared (keeping those put by the
 * API), bad declarations fail the start-up naming the value before anything is written,
 * and the endpoint lists and triggers schedules.
 *
 * @author EchoMQ
 */
class EchoScheduleDeclarationTests {

	private static final String QUEUE = "reports";

	private final TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);

	private String prefix;

	private ApplicationContextRunner runner;

	private final List<LettuceConnectionFactory> factories = new java.util.ArrayList<>();

	@AfterEach
	void tearDown() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

	@BeforeEach
	void setUp() {
		this.prefix = "d" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class, MetricsAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class,
					EchoMqScheduleAutoConfiguration.class, EchoMqEndpointAutoConfiguration.class))
			.withUserConfiguration(MeterConfiguration.class)
			.withPropertyValues("spring.data.redis.host=" + this.server.host(),
					"spring.data.redis.port=" + this.server.port(), "echomq.key-prefix=" + this.prefix,
					"echomq.shutdown.timeout=1s", "management.endpoints.web.exposure.include=echomq");
	}

	@Test
	void startUpShouldPutDeclaredSchedulesAndRemoveThoseNoLongerDeclared() {
		this.runner.withUserConfiguration(NightlyJobs.class)
			.withPropertyValues("echomq.schedules.nightly.queue=" + QUEUE, "echomq.schedules.nightly.cron=0 0 2 * * *",
					"echomq.schedules.nightly.zone=Europe/Paris", "echomq.schedules.nightly.payload=full",
					"echomq.schedules.nightly.misfire=run-once", "echomq.schedules.weekly.queue=" + QUEUE,
					"echomq.schedules.weekly.every=7d", "echomq.schedules.weekly.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
				template.schedule(QUEUE, "adhoc", ScheduleSpec.every(Duration.ofHours(1)), "x");
				Map<String, ScheduleState> byName = byName(template.schedules(QUEUE));
				assertThat(byName).containsOnlyKeys("nightly", "NightlyJobs.summary", "adhoc");
				ScheduleState nightly = byName.get("nightly");
				assertThat(nightly.definition().origin()).isEqualTo(ScheduleOrigin.PROPERTIES);
				assertThat(nightly.definition().spec().zone().getId()).isEqualTo("Europe/Paris");
				assertThat(nightly.definition().spec().misfire()).isEqualTo(MisfirePolicy.RUN_ONCE);
				assertThat(nightly.definition().payload()).isEqualTo("\"full\"");
				assertThat(nightly.nextFire()).isAfter(Instant.now());
				ScheduleState summary = byName.get("NightlyJobs.summary");
				assertThat(summary.definition().origin()).isEqualTo(ScheduleOrigin.ANNOTATION);
				assertThat(summary.definition().spec().cron()).isEqualTo("@daily");
			});
		this.runner.withUserConfiguration(NightlyJobs.class)
			.withPropertyValues("echomq.schedules.nightly.queue=" + QUEUE, "echomq.schedules.nightly.cron=0 0 2 * * *",
					"echomq.schedules.nightly.zone=Europe/Paris", "echomq.schedules.nightly.payload=full",
					"echomq.schedules.nightly.misfire=run-once")
			.run((context) -> assertThat(byName(context.getBean(EchoMqTemplate.class).schedules(QUEUE)))
				.containsOnlyKeys("nightly", "NightlyJobs.summary", "adhoc"));
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(byName(context.getBean(EchoMqTemplate.class).schedules(QUEUE))).containsOnlyKeys("adhoc");
		});
	}

	@Test
	void restartWithTheSameDeclarationShouldKeepTheNextFireTime() {
		String[] properties = { "echomq.schedules.hourly.queue=" + QUEUE, "echomq.schedules.hourly.every=1h" };
		Instant[] next = new Instant[1];
		this.runner.withPropertyValues(properties).run((context) -> next[0] = hourly(context).nextFire());
		this.runner.withPropertyValues(properties)
			.run((context) -> assertThat(hourly(context).nextFire()).isEqualTo(next[0]));
		this.runner.withPropertyValues("echomq.schedules.hourly.queue=" + QUEUE, "echomq.schedules.hourly.every=2h")
			.run((context) -> assertThat(hourly(context).definition().spec().every()).isEqualTo(Duration.ofHours(2)));
	}

	@Test
	void propertiesShouldDeclareOverlapCatchUpStartAndEnd() {
		this.runner
			.withPropertyValues("echomq.schedules.guarded.queue=" + QUEUE, "echomq.schedules.guarded.every=1h",
					"echomq.schedules.guarded.misfire=catch-up", "echomq.schedules.guarded.catch-up=7",
					"echomq.schedules.guarded.overlap=hold-one", "echomq.schedules.guarded.start=2030-01-01T00:00:00Z",
					"echomq.schedules.guarded.end=2030-06-30T12:00:00Z", "echomq.schedules.plain.queue=" + QUEUE,
					"echomq.schedules.plain.every=1h")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, ScheduleState> byName = byName(context.getBean(EchoMqTemplate.class).schedules(QUEUE));
				ScheduleSpec guarded = byName.get("guarded").definition().spec();
				assertThat(guarded.misfire()).isEqualTo(MisfirePolicy.CATCH_UP);
				assertThat(guarded.maxCatchUp()).isEqualTo(7);
				assertThat(guarded.overlap()).isEqualTo(OverlapPolicy.HOLD_ONE);
				assertThat(guarded.start()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
				assertThat(guarded.end()).isEqualTo(Instant.parse("2030-06-30T12:00:00Z"));
				assertThat(byName.get("guarded").nextFire()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
				ScheduleSpec plain = byName.get("plain").definition().spec();
				assertThat(plain.maxCatchUp()).isEqualTo(ScheduleSpec.DEFAULT_CATCH_UP);
				assertThat(plain.overlap()).isEqualTo(OverlapPolicy.ALLOW);
				assertThat(plain.start()).isNull();
				assertThat(plain.end()).isNull();
			});
	}

	@Test
	void catchUpOutOfRangeOrEndBeforeStartShouldFailStartUpNamingTheValue() {
		assertStartUpFails("was 0", "echomq.schedules.bad.queue=" + QUEUE, "echomq.schedules.bad.every=1h",
				"echomq.schedules.bad.catch-up=0");
		assertStartUpFails("before its start", "echomq.schedules.bad.queue=" + QUEUE, "echomq.schedules.bad.every=1h",
				"echomq.schedules.bad.start=2030-01-02T00:00:00Z", "echomq.schedules.bad.end=2030-01-01T00:00:00Z");
	}

	@Test
	void specChangedByOneNodeShouldTakeEffectOnARunningNode() {
		ApplicationContextRunner writer = this.runner.withPropertyValues("echomq.schedule.enabled=false");
		ApplicationContextRunner ticker = this.runner.withPropertyValues("echomq.schedule.interval=20ms");
		writer.run((a) -> ticker.run((b) -> {
			assertThat(a).doesNotHaveBean(ScheduleTicker.class);
			EchoMqTemplate template = a.getBean(EchoMqTemplate.class);
			ScheduleTicker running = b.getBean(ScheduleTicker.class);
			template.schedule(QUEUE, "live", ScheduleSpec.every(Duration.ofHours(1)), "x");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> running.schedules()
					.stream()
					.anyMatch((state) -> state.definition().name().equals("live")));
			assertThat(running.getFires()).isZero();
			template.schedule(QUEUE, "live", ScheduleSpec.every(Duration.ofMillis(200)), "x");
			await().atMost(Duration.ofSeconds(10)).until(() -> running.getFires() >= 3);
			assertThat(byName(running.schedules()).get("live").definition().spec().every())
				.isEqualTo(Duration.ofMillis(200));
		}));
	}

	@Test
	void invalidCronShouldFailStartUpNamingTheValue() {
		assertStartUpFails("0 0 25 * * *", "echomq.schedules.bad.queue=" + QUEUE,
				"echomq.schedules.bad.cron=0 0 25 * * *");
	}

	@Test
	void unknownZoneShouldFailStartUpNamingTheValue() {
		assertStartUpFails("Mars/Olympus", "echomq.schedules.bad.queue=" + QUEUE, "echomq.schedules.bad.cron=@daily",
				"echomq.schedules.bad.zone=Mars/Olympus");
	}

	@Test
	void invalidQueueShouldFailStartUpNamingTheValue() {
		assertStartUpFails("bad{queue}", "echomq.schedules.bad.queue=bad{queue}", "echomq.schedules.bad.every=1h");
	}

	@Test
	void zeroOrNegativeEveryShouldFailStartUpNamingTheValue() {
		assertStartUpFails("PT0S", "echomq.schedules.bad.queue=" + QUEUE, "echomq.schedules.bad.every=0s");
		assertStartUpFails("PT-5S", "echomq.schedules.bad.queue=" + QUEUE, "echomq.schedules.bad.every=-5s");
	}

	@Test
	void cronAndEveryTogetherShouldFailStartUp() {
		assertStartUpFails("exactly one of cron and every", "echomq.schedules.bad.queue=" + QUEUE,
				"echomq.schedules.bad.every=1h", "echomq.schedules.bad.cron=@daily");
	}

	@Test
	void invalidAnnotationShouldFailStartUpNamingTheValue() {
		this.runner.withUserConfiguration(BadCronJobs.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(rootMessage(context)).contains("BadCronJobs.report").contains("every day at two");
			assertNothingWritten();
		});
	}

	@Test
	void sameNameDeclaredTwiceShouldFailStartUp() {
		this.runner.withUserConfiguration(NightlyJobs.class)
			.withPropertyValues("echomq.schedules[NightlyJobs.summary].queue=" + QUEUE,
					"echomq.schedules[NightlyJobs.summary].every=1h")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context)).contains("declared twice");
			});
	}

	@Test
	void endpointShouldListSchedulesAndTriggerOneNow() {
		this.runner.withPropertyValues("echomq.schedules.hourly.queue=" + QUEUE, "echomq.schedules.hourly.every=1h")
			.run((context) -> {
				EchoMqEndpoint endpoint = context.getBean(EchoMqEndpoint.class);
				List<ScheduleDescriptor> schedules = endpoint.schedules().schedules();
				assertThat(schedules).singleElement().satisfies((schedule) -> {
					assertThat(schedule.name()).isEqualTo("hourly");
					assertThat(schedule.every()).isEqualTo("PT1H");
					assertThat(schedule.origin()).isEqualTo("PROPERTIES");
					assertThat(schedule.lastFire()).isNull();
					assertThat(schedule.nextFire()).isAfter(Instant.now());
				});
				TriggerDescriptor trigger = endpoint.triggerSchedule(QUEUE, "hourly");
				assertThat(trigger).isNotNull();
				StringRedisTemplate redis = redis();
				Keyspace keyspace = new Keyspace(this.prefix);
				assertThat(redis.opsForZSet().range(keyspace.queueKey(QUEUE, KeyType.PENDING.suffix()), 0, -1))
					.containsExactly(trigger.id());
				assertThat(redis.opsForHash().get(keyspace.jobKey(QUEUE, trigger.id()), "schedule"))
					.isEqualTo("hourly");
				assertThat(context.getBean(MeterRegistry.class)
					.get(EchoMqScheduleMetrics.FIRES)
					.tags("queue", QUEUE, "schedule", "hourly")
					.counter()
					.count()).isOne();
				assertThat(endpoint.schedules().schedules().get(0).nextFire()).isEqualTo(schedules.get(0).nextFire());
				EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
				assertThat(web.schedules("schedules").getStatus()).isEqualTo(200);
				assertThat(web.triggerSchedule("schedules", QUEUE, "missing", "trigger", null).getStatus())
					.isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
				assertThat(web.triggerSchedule("schedules", "bad{q}", "hourly", "trigger", null).getStatus())
					.isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
			});
	}

	@Test
	void aPausedDeclaredScheduleShouldStayPausedAcrossARestartUntilResumedThroughTheEndpoint() {
		this.runner.withUserConfiguration(NightlyJobs.class).run((context) -> {
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			assertThat(web.scheduleAction("schedules", QUEUE, "NightlyJobs.summary", "pause", "maintenance").getBody())
				.isInstanceOfSatisfying(ScheduleDescriptor.class, (paused) -> {
					assertThat(paused.paused()).isTrue();
					assertThat(paused.nextFire()).isNull();
					assertThat(paused.overlap()).isEqualTo("SKIP");
				});
			assertThat(web.scheduleAction("schedules", QUEUE, "missing", "pause", null).getStatus())
				.isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
			assertThat(web.purge("schedules", QUEUE, "missing").getStatus())
				.isEqualTo(WebEndpointResponse.STATUS_NOT_FOUND);
		});
		this.runner.withUserConfiguration(NightlyJobs.class).run((context) -> {
			EchoMqEndpoint endpoint = context.getBean(EchoMqEndpoint.class);
			assertThat(endpoint.schedules().schedules()).singleElement()
				.satisfies((schedule) -> assertThat(schedule.paused()).isTrue());
			EchoMqEndpointWebExtension web = context.getBean(EchoMqEndpointWebExtension.class);
			assertThat(web.scheduleAction("schedules", QUEUE, "NightlyJobs.summary", "resume", null).getBody())
				.isInstanceOfSatisfying(ScheduleDescriptor.class, (resumed) -> {
					assertThat(resumed.paused()).isFalse();
					assertThat(resumed.nextFire()).isAfter(Instant.now());
				});
			assertThat(web.purge("schedules", QUEUE, "NightlyJobs.summary").getStatus()).isEqualTo(200);
			assertThat(endpoint.schedules().schedules()).isEmpty();
		});
	}

	private void assertStartUpFails(String value, String... properties) {
		this.runner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(rootMessage(context)).contains(value);
			assertNothingWritten();
		});
	}

	private void assertNothingWritten() {
		StringRedisTemplate redis = redis();
		Keyspace keyspace = new Keyspace(this.prefix);
		assertThat(redis.hasKey(keyspace.scheduleQueuesKey())).isFalse();
		assertThat(redis.hasKey(keyspace.queueKey(QUEUE, KeyType.SCHEDULES.suffix()))).isFalse();
	}

	private StringRedisTemplate redis() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return new StringRedisTemplate(factory);
	}

	private static String rootMessage(AssertableApplicationContext context) {
		Throwable failure = context.getStartupFailure();
		StringBuilder messages = new StringBuilder();
		while (failure != null) {
			if (failure instanceof InvalidScheduleException) {
				return failure.getMessage();
			}
			messages.append(failure.getMessage()).append(" / ");
			failure = failure.getCause();
		}
		return messages.toString();
	}

	private static Map<String, ScheduleState> byName(List<ScheduleState> states) {
		Map<String, ScheduleState> byName = new java.util.TreeMap<>();
		states.forEach((state) -> byName.put(state.definition().name(), state));
		return byName;
	}

	@Configuration(proxyBeanMethods = false)
	static class MeterConfiguration {

		@Bean
		SimpleMeterRegistry simpleMeterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NightlyJobs {

		@EchoSchedule(queue = QUEUE, cron = "@daily", overlap = OverlapPolicy.SKIP)
		void summary() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadCronJobs {

		@EchoSchedule(queue = QUEUE, cron = "every day at two")
		void report() {
		}

	}

	private static ScheduleState hourly(ApplicationContext context) {
		return context.getBean(EchoMqTemplate.class)
			.schedules(QUEUE)
			.stream()
			.filter((state) -> state.definition().name().equals("hourly"))
			.findFirst()
			.orElseThrow();
	}

}
