package io.echomq.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * EchoMQ's configuration errors end a real {@link SpringApplication} run with Boot's
 * "APPLICATION FAILED TO START" report, saying what is wrong and what to do, through
 * {@link EchoMqFailureAnalyzer} registered in {@code META-INF/spring.factories}. Each
 * fails before EchoMQ connects, so no server is needed.
 *
 * @author EchoMQ
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class EchoMqFailureAnalyzerTests {

	@Test
	void badCron(CapturedOutput output) {
		run("echomq.schedules.nightly.queue=reports", "echomq.schedules.nightly.cron=0 0 25 * * *");
		assertThat(report(output)).contains("An EchoMQ schedule is invalid: property echomq.schedules.nightly")
			.contains("0 0 25 * * *")
			.contains("six fields with seconds")
			.contains("@daily");
	}

	@Test
	void unknownQueueOption(CapturedOutput output) {
		run("echomq.fail-on-unknown-properties=true", "echomq.queues.mail.concurency=3");
		assertThat(report(output)).contains("EchoMQ does not know this property")
			.contains("Unknown property 'echomq.queues.mail.concurency'")
			.contains("Rename each property as shown or remove it")
			.contains("echomq.fail-on-unknown-properties=false");
	}

	@Test
	void unreadableDuration(CapturedOutput output) {
		run("echomq.listener.lease=thirty seconds");
		assertThat(report(output)).contains("Invalid EchoMQ property 'echomq.listener.lease' = 'thirty seconds'")
			.contains("Set echomq.listener.lease to a duration such as 500ms, 30s");
	}

	@Test
	void durationOutOfRange(CapturedOutput output) {
		run("echomq.queues.mail.lease=-5s");
		assertThat(report(output)).contains("echomq.queues.*.lease must be a positive duration, was PT-5S")
			.contains("Invalid EchoMQ property 'echomq.queues.mail.lease'")
			.contains("Correct echomq.queues.mail.lease as the reason above says");
	}

	@Test
	void encryptedQueueWithoutKeys(CapturedOutput output) {
		run("echomq.queues.payments.encryption.enabled=true");
		assertThat(report(output))
			.contains(
					"Queue 'payments' has echomq.queues.payments.encryption.enabled=true but there are no payload keys")
			.contains("openssl rand -base64 32")
			.contains("or set echomq.queues.payments.encryption.enabled=false");
	}

	private static void run(String... properties) {
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put("echomq.listener.auto-startup", "false");
		defaults.put("spring.data.redis.port", "1");
		for (String property : properties) {
			int equals = property.indexOf('=');
			defaults.put(property.substring(0, equals), property.substring(equals + 1));
		}
		SpringApplication application = new SpringApplication(FailingApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setDefaultProperties(defaults);
		assertThatException().isThrownBy(application::run);
	}

	/** The report's block, from its banner to the end of its action. */
	private static String report(CapturedOutput output) {
		String all = output.getAll();
		int start = all.indexOf("APPLICATION FAILED TO START");
		assertThat(start).as("the failure report in:%n%s", all).isNotNegative();
		String report = all.substring(start);
		assertThat(report).contains("Description:").contains("Action:");
		assertThat(report.substring(0, report.indexOf("Action:"))).as("no stack trace in the description")
			.doesNotContain("\tat ");
		return report;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
			EchoMqAutoConfiguration.class, EchoMqScheduleAutoConfiguration.class })
	static class FailingApplication {

	}

}
