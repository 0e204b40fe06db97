package io.echomq.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code echomq.*} key that EchoMQ does not read, a typo or a renamed key, is named at
 * start-up with its replacement, instead of being ignored without a word; the renamed
 * keys are deprecated in the configuration metadata, so Boot's properties migrator
 * reports them too. Lettuce connects lazily, so no server is needed.
 *
 * @author EchoMQ
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class UnknownPropertiesCheckTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("echomq.listener.auto-startup=false")
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
				EchoMqAutoConfiguration.class));

	@Test
	void renamedKeyIsWarnedNamingItsReplacement(CapturedOutput output) {
		this.contextRunner.withPropertyValues("echomq.scheduler.reap-interval=2s", "echomq.scheduler.batch-size=50")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(EchoMqProperties.class).maintenance().reapInterval())
					.as("the old key is not read")
					.hasSeconds(1);
			});
		assertThat(output).containsOnlyOnce("Property 'echomq.scheduler.reap-interval'")
			.contains("Property 'echomq.scheduler.reap-interval' (from \"echomq.scheduler.reap-interval\" from "
					+ "property source \"test\") was renamed to 'echomq.maintenance.reap-interval': EchoMQ no "
					+ "longer reads it")
			.contains("Property 'echomq.scheduler.batch-size'")
			.contains("was renamed to 'echomq.maintenance.batch-size'");
		assertThat(output.getAll().lines().filter((line) -> line.contains("echomq.scheduler.reap-interval")))
			.singleElement()
			.asString()
			.contains("WARN");
	}

	@Test
	void typoInAQueueKeyIsWarnedAndKnownKeysAreNot(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("echomq.queues.mail.concurency=3", "echomq.queues.mail.concurrency=2",
					"echomq.queues.mail.rate-limit.limit=5", "echomq.queues.mail.retention.dead.age=1d",
					"echomq.queues.mail.events.max-length=100", "echomq.queues[mail.eu].lanes.max-active=1",
					"echomq.listener.retry-for[0]=java.io.IOException", "echomq.listener.maxAttempts=4",
					"echomq.schedules.nightly.enabled=false", "echomq.encryption.keys.v1=a2V5",
					"echomq.maintenance.idle-check=3s", "echomq.fail-on-unknown-properties=false",
					"echomq.listenr.concurrency=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(UnknownPropertiesCheck.check(context.getEnvironment(), getClass().getClassLoader()))
					.containsOnlyKeys("echomq.queues.mail.concurency", "echomq.listenr.concurrency");
			});
		assertThat(output).contains("Unknown property 'echomq.queues.mail.concurency'")
			.contains("did you mean 'echomq.queues.mail.concurrency'?")
			.contains("Unknown property 'echomq.listenr.concurrency'")
			.contains("did you mean 'echomq.listener.concurrency'?")
			.doesNotContain("property 'echomq.queues.mail.concurrency'")
			.doesNotContain("property 'echomq.listener.retry-for")
			.doesNotContain("property 'echomq.encryption.keys.v1'")
			.doesNotContain("property 'echomq.queues[mail.eu]");
	}

	@Test
	void keysOfAnOptionalModuleThatIsNotOnTheClassPathAreLeftAlone() {
		assertThat(getClass().getClassLoader().getResource("io/echomq/devservices/package-info.class")).isNull();
		this.contextRunner
			.withPropertyValues("echomq.fail-on-unknown-properties=true", "echomq.devservices.enabled=false",
					"echomq.dashboard.path=/queues")
			.run((context) -> assertThat(context).hasNotFailed());
		this.contextRunner
			.withPropertyValues("echomq.fail-on-unknown-properties=true", "echomq.devservice.enabled=false")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void unknownKeyFailsTheStartUpWhenAsked() {
		this.contextRunner
			.withPropertyValues("echomq.fail-on-unknown-properties=true", "echomq.scheduler.promote-interval=50ms")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(EchoMqConfigurationException.class)
					.hasMessageContaining("Property 'echomq.scheduler.promote-interval'")
					.hasMessageContaining("was renamed to 'echomq.maintenance.promote-interval'");
			});
	}

	@Test
	void renamedKeysAreDeprecatedInTheMetadataWithTheirReplacement() throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		metadata().get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
		for (String key : new String[] { "reap-interval", "promote-interval", "batch-size", "idle-check" }) {
			JsonNode deprecation = properties.get("echomq.scheduler." + key).get("deprecation");
			assertThat(deprecation).as("echomq.scheduler." + key).isNotNull();
			assertThat(deprecation.get("level").asString()).isEqualTo("error");
			assertThat(deprecation.get("replacement").asString()).isEqualTo("echomq.maintenance." + key);
			assertThat(properties).containsKey("echomq.maintenance." + key);
		}
	}

	@Test
	void propertiesMigratorReportsTheRenamedKey(CapturedOutput output) {
		SpringApplication application = new SpringApplication(MigratedApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setDefaultProperties(Map.of("echomq.scheduler.promote-interval", "50ms",
				"echomq.listener.auto-startup", "false", "spring.data.redis.port", "1"));
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(context.getBean(EchoMqProperties.class).maintenance().promoteInterval())
				.as("the migrator maps the old key to its replacement while it runs")
				.hasMillis(50);
		}
		assertThat(output).contains("echomq.scheduler.promote-interval")
			.contains("Replacement: echomq.maintenance.promote-interval");
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json",
				EchoMqProperties.class.getClassLoader())
			.getInputStream()) {
			return JsonMapper.builder().build().readTree(in);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
			EchoMqAutoConfiguration.class })
	static class MigratedApplication {

	}

}
