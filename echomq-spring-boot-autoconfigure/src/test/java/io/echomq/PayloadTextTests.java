package io.echomq;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.support.PayloadConversionException;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the auto-configured {@link EchoMqTemplate} stores for payload text a user may
 * pass, on a real server: text that has no UTF-8 form is refused before anything is
 * written, and every other text is stored exactly.
 *
 * @author EchoMQ
 */
class PayloadTextTests {

	private final TestServer server = TestRedisServer.shared(ServerFlavor.VALKEY);

	private final String queue = "text-" + UUID.randomUUID().toString().substring(0, 8);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("spring.data.redis.host=" + this.server.host(),
				"spring.data.redis.port=" + this.server.port(), "echomq.listener.auto-startup=false")
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
				EchoMqAutoConfiguration.class));

	@Test
	void unpairedSurrogateShouldBeRefusedBeforeAnyWrite() {
		this.contextRunner.run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			StringRedisTemplate redis = context.getBean(Engine.class).executor().getTemplate();
			assertThatExceptionOfType(PayloadConversionException.class)
				.isThrownBy(() -> template.enqueue(this.queue, "a\uD800b"))
				.withMessageContaining("'" + this.queue + "'")
				.withMessageContaining("unpaired UTF-16 surrogate \\uD800 at index 2")
				.withMessageContaining("nothing was written");
			assertThatExceptionOfType(PayloadConversionException.class)
				.isThrownBy(() -> template.enqueueAll(this.queue, List.of("fine", "low \uDC00 first")))
				.withMessageContaining("\\uDC00");
			assertThatExceptionOfType(PayloadConversionException.class)
				.isThrownBy(() -> template.schedule(this.queue, "nightly", ScheduleSpec.every(Duration.ofHours(1)),
						"high at the end \uD83D"))
				.withMessageContaining("\\uD83D");
			assertThat(redis.hasKey(Keyspace.defaults().queueKey(this.queue, KeyType.PENDING.suffix()))).isFalse();
			assertThat(template.schedules(this.queue)).isEmpty();
		});
	}

	@Test
	void textWithPairedSurrogatesAndOtherScriptsShouldBeStoredExactly() {
		this.contextRunner.run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			Engine jobs = context.getBean(Engine.class);
			String text = "a\uD83D\uDE00b é ж 中 \u0000 end";
			JobId id = template.enqueue(this.queue, text);
			ClaimedJob job = jobs.claims().claim(this.queue, Duration.ofSeconds(30), 1).get(0);
			assertThat(job.id()).isEqualTo(id);
			assertThat(job.payload()).isEqualTo("\"a\uD83D\uDE00b é ж 中 \\u0000 end\"");
		});
	}

	@Test
	void objectWithoutPropertiesShouldBeStoredAsAnEmptyObject() {
		this.contextRunner.run((context) -> {
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			template.enqueue(this.queue, new Object());
			assertThat(context.getBean(Engine.class)
				.claims()
				.claim(this.queue, Duration.ofSeconds(30), 1)
				.get(0)
				.payload()).isEqualTo("{}");
		});
	}

}
