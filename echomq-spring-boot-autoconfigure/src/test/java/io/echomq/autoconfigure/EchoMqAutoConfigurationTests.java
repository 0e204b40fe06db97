package io.echomq.autoconfigure;

import java.time.Duration;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.Retention;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.support.PayloadConverter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.RedisOperations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EchoMqAutoConfiguration}. Lettuce connects lazily, so no server is
 * needed to build the context.
 *
 * @author EchoMQ
 */
class EchoMqAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("echomq.listener.auto-startup=false")
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
				EchoMqAutoConfiguration.class));

	@Test
	void runShouldCreateEngineAndTemplate() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(Keyspace.class)
				.hasSingleBean(EchoMqEngine.class)
				.doesNotHaveBean(ScriptExecutor.class)
				.hasSingleBean(PayloadConverter.class)
				.hasSingleBean(EchoMqTemplate.class);
			assertThat(context.getBean(Keyspace.class).prefix()).isEqualTo("emq");
		});
	}

	@Test
	void runWithKeyPrefixShouldUseIt() {
		this.contextRunner.withPropertyValues("echomq.key-prefix=billing")
			.run((context) -> assertThat(context.getBean(Keyspace.class).prefix()).isEqualTo("billing"));
	}

	@Test
	void runWhenDisabledShouldNotCreateBeans() {
		this.contextRunner.withPropertyValues("echomq.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(Engine.class).doesNotHaveBean(EchoMqTemplate.class));
	}

	@Test
	void runWithoutSpringDataRedisShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(RedisOperations.class))
			.run((context) -> assertThat(context).doesNotHaveBean(Engine.class));
	}

	@Test
	void runWithUserPayloadConverterShouldBackOff() {
		this.contextRunner.withUserConfiguration(CustomConverterConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(PayloadConverter.class);
			assertThat(context.getBean(PayloadConverter.class)).isSameAs(CustomConverterConfiguration.CONVERTER);
		});
	}

	@Test
	void runWithRetentionPropertiesShouldGiveEachQueueItsBounds() {
		this.contextRunner
			.withPropertyValues("echomq.queues.mail.retention.completed.count=1000",
					"echomq.queues.mail.retention.completed.age=1h", "echomq.queues.mail.retention.dead.count=50",
					"echomq.queues.audit.retention.dead.age=0")
			.run((context) -> {
				Engine jobs = context.getBean(Engine.class);
				assertThat(jobs.upkeep().retention("mail", JobState.COMPLETED))
					.isEqualTo(new Retention(1000, Duration.ofHours(1)));
				assertThat(jobs.upkeep().retention("mail", JobState.DEAD))
					.isEqualTo(new Retention(50, Duration.ofDays(7)));
				assertThat(jobs.upkeep().retention("audit", JobState.COMPLETED)).isEqualTo(Retention.NONE);
				assertThat(jobs.upkeep().retention("audit", JobState.DEAD)).isEqualTo(Retention.ofCount(10_000));
				assertThat(jobs.upkeep().retention("other", JobState.DEAD)).isEqualTo(Retention.DEAD_DEFAULT);
			});
	}

	@Test
	void runWithNegativeRetentionShouldFailNamingThePropertyAndValue() {
		assertStartupFails("echomq.queues.mail.retention.completed.count=-3", "echomq.queues.*.retention.*.count",
				"-3");
	}

	@Test
	void runWithZeroLeaseShouldFailNamingTheProperty() {
		assertStartupFails("echomq.listener.lease=0s", "echomq.listener.lease");
	}

	@Test
	void runWithNegativeIntervalShouldFailNamingTheProperty() {
		assertStartupFails("echomq.maintenance.promote-interval=-1s", "echomq.maintenance.promote-interval");
	}

	@Test
	void runWithBadKeyPrefixShouldFailNamingIt() {
		assertStartupFails("echomq.key-prefix=a:b", "'a:b'");
	}

	@Test
	void propertiesShouldHaveDefaults() {
		this.contextRunner.run((context) -> {
			EchoMqProperties properties = context.getBean(EchoMqProperties.class);
			assertThat(properties.listener().concurrency()).isEqualTo(4);
			assertThat(properties.listener().backoff().multiplier()).isEqualTo(2.0);
			assertThat(properties.maintenance().batchSize()).isEqualTo(500);
			assertThat(properties.queues()).isEmpty();
		});
	}

	@Test
	void perQueuePropertiesShouldBind() {
		this.contextRunner.withPropertyValues("echomq.queues.mail.concurrency=9", "echomq.queues.mail.max-attempts=7")
			.run((context) -> {
				EchoMqProperties properties = context.getBean(EchoMqProperties.class);
				assertThat(properties.queues().get("mail").concurrency()).isEqualTo(9);
				assertThat(properties.queues().get("mail").maxAttempts()).isEqualTo(7);
			});
	}

	private void assertStartupFails(String property, String... messageParts) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			for (String part : messageParts) {
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(part);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomConverterConfiguration {

		static final PayloadConverter CONVERTER = new PayloadConverter() {

			@Override
			public String write(Object payload) {
				return payload.toString();
			}

			@Override
			public Object read(String text, java.lang.reflect.Type type) {
				return text;
			}

		};

		@Bean
		PayloadConverter customConverter() {
			return CONVERTER;
		}

	}

}
