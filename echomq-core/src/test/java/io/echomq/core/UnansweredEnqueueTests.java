package io.echomq.core;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.inspect.JobView;
import io.echomq.inspect.QueueInspector;
import io.echomq.support.JacksonPayloadConverter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An enqueue that gets no answer (the server paused with {@code CLIENT PAUSE} past the
 * client's command timeout) says that the fate of its jobs is unknown and how to find it
 * out, rather than that it was written in part: the jobs it names are then looked up by
 * id, and found, since the call was applied once the pause ended.
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS" })
class UnansweredEnqueueTests extends EngineTestSupport {

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);

	private static final Duration PAUSE = Duration.ofMillis(1500);

	private LettuceConnectionFactory impatient;

	@AfterEach
	void closeImpatient() {
		if (this.impatient != null) {
			this.impatient.destroy();
		}
		// a PING answers once the pause is over: the next test finds the server running
		this.redis.execute((RedisCallback<Object>) (connection) -> connection.ping());
	}

	@Test
	void aSingleEnqueueWithNoAnswerShouldSayItsJobsFateIsUnknownAndHowToLookItUp() {
		EchoMqTemplate template = impatientTemplate();
		template.enqueue(this.queue, "warm-up");
		pauseServer();
		assertThatExceptionOfType(EnqueueOutcomeUnknownException.class)
			.isThrownBy(() -> template.enqueue(this.queue, "lost reply"))
			.isInstanceOf(PartialEnqueueException.class)
			.satisfies((ex) -> {
				assertThat(ex.getEnqueued()).isEmpty();
				assertThat(ex.getUnknown()).hasSize(1);
				JobId id = ex.getUnknown().get(0);
				assertThat(ex.getMessage()).startsWith("Enqueue of job " + id + " to queue '" + this.queue + "'")
					.contains("whether it was enqueued is unknown")
					.contains("QueueInspector.job(queue, id)")
					.doesNotContain("written only in part");
				// the call was queued by the paused server: it applies once the pause
				// ends
				JobView job = lookUp(id);
				assertThat(job.state()).isEqualTo(JobState.PENDING);
			});
	}

	@Test
	void aBatchWithNoAnswerShouldNameEveryJobAsUnknown() {
		EchoMqTemplate template = impatientTemplate();
		template.enqueue(this.queue, "warm-up");
		pauseServer();
		assertThatExceptionOfType(EnqueueOutcomeUnknownException.class)
			.isThrownBy(() -> template.enqueueAll(this.queue, List.of("a", "b", "c")))
			.satisfies((ex) -> {
				assertThat(ex.getEnqueued()).isEmpty();
				assertThat(ex.getUnknown()).hasSize(3);
				assertThat(ex.getMessage()).startsWith("Enqueue of 3 jobs to queue '" + this.queue + "'")
					.contains("getUnknown()");
				ex.getUnknown().forEach(this::lookUp);
			});
	}

	private EchoMqTemplate impatientTemplate() {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(this.connectionFactory.getHostName(),
				this.connectionFactory.getPort());
		this.impatient = new LettuceConnectionFactory(server,
				LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
		this.impatient.afterPropertiesSet();
		this.impatient.start();
		Engine engine = new Engine(new ScriptExecutor(new StringRedisTemplate(this.impatient)), this.keyspace);
		return new EchoMqTemplate(engine, new JacksonPayloadConverter(JsonMapper.builder().build()), 1024 * 1024,
				(queue) -> 3, List.of());
	}

	private void pauseServer() {
		this.redis.execute((RedisCallback<Object>) (connection) -> connection.execute("CLIENT", bytes("PAUSE"),
				bytes(Long.toString(PAUSE.toMillis())), bytes("ALL")));
	}

	private JobView lookUp(JobId id) {
		QueueInspector inspector = new QueueInspector(this.jobs);
		return await().atMost(Duration.ofSeconds(10)).until(() -> inspector.job(this.queue, id), (job) -> job != null);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
