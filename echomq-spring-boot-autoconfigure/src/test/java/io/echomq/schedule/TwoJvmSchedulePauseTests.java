package io.echomq.schedule;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import io.echomq.autoconfigure.EchoMqScheduleAutoConfiguration;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.schedule.internal.Schedules;
import io.echomq.test.ChildJvm;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A schedule every second, declared by this JVM and a child JVM
 * ({@link ScheduleNodeApplication}) on one server, is paused here: nothing fires while it
 * is paused, across a restart of the child (which declares it again at start-up);
 * resumed, it fires again, and no fire time is ever enqueued twice. The fires are counted
 * from the server: the occurrences in pending, each with its fire time.
 *
 * @author EchoMQ
 */
@Timeout(120)
class TwoJvmSchedulePauseTests {

	private final TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);

	private final String prefix = ListenerTestSupport.uniquePrefix();

	private final List<String> connection = List.of("spring.data.redis.host=" + this.server.host(),
			"spring.data.redis.port=" + this.server.port());

	private final Keyspace keyspace = new Keyspace(this.prefix);

	private Process child;

	private Path childLog;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	@AfterEach
	void stop() throws Exception {
		stopChild();
		if (this.connectionFactory != null) {
			this.connectionFactory.destroy();
		}
	}

	@Test
	void aPausedScheduleFiresNothingAcrossARestartOfTheOtherJvmAndFiresAgainOnceResumed() throws Exception {
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.redis = new StringRedisTemplate(this.connectionFactory);
		startChild();
		ListenerTestSupport.runner(this.connection, this.prefix)
			.withConfiguration(AutoConfigurations.of(EchoMqScheduleAutoConfiguration.class))
			.withUserConfiguration(ScheduleNodeApplication.Declared.class)
			.withPropertyValues("echomq.schedule.interval=100ms")
			.run((context) -> {
				EchoMqSchedules schedules = context.getBean(EchoMqSchedules.class);
				await("fires before the pause").atMost(Duration.ofSeconds(20)).until(() -> fires() >= 1);
				assertThat(schedules.pause(ScheduleNodeApplication.QUEUE, ScheduleNodeApplication.NAME).paused())
					.isTrue();
				long paused = fires();
				long pausedAt = serverTime();
				stopChild();
				startChild();
				assertThat(schedules.schedules()).singleElement().satisfies((state) -> {
					assertThat(state.paused()).as("still paused after the child declared it again").isTrue();
					assertThat(state.nextFire()).isNull();
				});
				await("nothing fires while paused").during(Duration.ofMillis(2000))
					.atMost(Duration.ofSeconds(5))
					.until(() -> fires() == paused);
				long resumedAt = serverTime();
				schedules.resume(ScheduleNodeApplication.QUEUE, ScheduleNodeApplication.NAME);
				await("fires again once resumed").atMost(Duration.ofSeconds(20)).until(() -> fires() >= paused + 2);
				List<Long> times = fireTimes();
				assertThat(new TreeSet<>(times)).as("no fire time enqueued twice").hasSameSizeAs(times);
				assertThat(times).as("no fire time inside the pause")
					.allSatisfy((time) -> assertThat(time <= pausedAt || time > resumedAt).isTrue());
			});
	}

	private long serverTime() {
		Long time = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return (time != null) ? time : 0;
	}

	private long fires() {
		Long size = this.redis.opsForZSet().zCard(key(KeyType.PENDING));
		return (size != null) ? size : 0;
	}

	private List<Long> fireTimes() {
		Set<String> ids = this.redis.opsForZSet().range(key(KeyType.PENDING), 0, -1);
		List<Long> times = new ArrayList<>();
		for (String id : (ids != null) ? ids : Set.<String>of()) {
			Object fireAt = this.redis.opsForHash()
				.get(this.keyspace.jobKey(ScheduleNodeApplication.QUEUE, id), Schedules.FIRE_AT_FIELD);
			times.add(Long.parseLong(String.valueOf(fireAt)));
		}
		times.sort(Long::compare);
		return times;
	}

	private String key(KeyType type) {
		return this.keyspace.queueKey(ScheduleNodeApplication.QUEUE, type.suffix());
	}

	private void startChild() throws Exception {
		this.childLog = Files.createTempFile("echomq-schedule-node-", ".log");
		List<String> args = new ArrayList<>(List.of("--echomq.key-prefix=" + this.prefix,
				"--echomq.schedule.interval=100ms", "--echomq.shutdown.timeout=2s", "--spring.main.banner-mode=off"));
		this.connection.forEach((property) -> args.add("--" + property));
		this.child = ChildJvm.start(ScheduleNodeApplication.class, this.childLog, args);
		Process started = this.child;
		Path log = this.childLog;
		await("child JVM ready").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.failFast("child JVM exited", () -> !started.isAlive())
			.until(() -> Files.readString(log).contains(ScheduleNodeApplication.READY));
	}

	private void stopChild() throws Exception {
		if (this.child != null) {
			this.child.destroyForcibly();
			this.child.waitFor(10, TimeUnit.SECONDS);
			this.child = null;
		}
		if (this.childLog != null) {
			Files.deleteIfExists(this.childLog);
			this.childLog = null;
		}
	}

}
