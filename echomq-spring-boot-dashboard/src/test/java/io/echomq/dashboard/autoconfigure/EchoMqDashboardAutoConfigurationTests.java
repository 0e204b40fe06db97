package io.echomq.dashboard.autoconfigure;

import java.util.List;

import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.dashboard.EchoMqDashboard;
import io.echomq.dashboard.EngineQueueHistory;
import io.echomq.dashboard.History;
import io.echomq.dashboard.QueueHistory;
import io.echomq.dashboard.web.DashboardSecurity;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.AbstractApplicationContextRunner;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.function.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EchoMqDashboardAutoConfiguration}.
 *
 * @author EchoMQ
 */
class EchoMqDashboardAutoConfigurationTests {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations.of(DataRedisAutoConfiguration.class,
			JacksonAutoConfiguration.class, EchoMqAutoConfiguration.class, EchoMqDashboardAutoConfiguration.class);

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
		.withConfiguration(CONFIGURATIONS)
		.withPropertyValues(redis());

	@Test
	void runShouldServeTheDashboard() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(EchoMqDashboard.class)
				.hasSingleBean(EchoMqQueueCatalog.class)
				.hasBean("echoMqDashboardRoutes");
			assertThat(context.getBean("echoMqDashboardRoutes")).isInstanceOf(RouterFunction.class);
			assertThat(context.getBean(DashboardSecurity.class).writeRole()).as("no Spring Security here").isNull();
			assertThat(context.getBean(QueueHistory.class)).isInstanceOf(EngineQueueHistory.class);
			assertThat(context.getBean(QueueHistory.class).isKept()).isTrue();
			EchoMqDashboardProperties properties = context.getBean(EchoMqDashboardProperties.class);
			assertThat(properties.path()).isEqualTo("/echomq");
			assertThat(properties.readOnly()).isFalse();
			assertThat(properties.writeRole()).isEqualTo("ECHOMQ_ADMIN");
			assertThat(properties.refresh()).hasSeconds(5);
		});
	}

	@Test
	void runWhenDisabledShouldNotServeTheDashboard() {
		assertNoDashboard(this.contextRunner.withPropertyValues("echomq.dashboard.enabled=false"),
				"echoMqDashboardRoutes");
	}

	@Test
	void runWhenEchoMqIsDisabledShouldNotServeTheDashboard() {
		assertNoDashboard(this.contextRunner.withPropertyValues("echomq.enabled=false"));
	}

	@Test
	void runInAnApplicationThatIsNotServletWebShouldNotServeTheDashboard() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withPropertyValues(redis())
			.run((context) -> assertThat(context).hasBean("echoMqEngine").doesNotHaveBean(EchoMqDashboard.class));
	}

	@Test
	void runWithoutSpringMvcShouldNotServeTheDashboard() {
		assertNoDashboard(this.contextRunner.withClassLoader(new FilteredClassLoader(RouterFunction.class)));
	}

	@Test
	void runWithAnInvalidPathShouldFailWithTheReason() {
		this.contextRunner.withPropertyValues("echomq.dashboard.path=echomq/")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Invalid echomq.dashboard.path 'echomq/'"));
	}

	@Test
	void runWithAHistoryOfTheUserShouldUseIt() {
		this.contextRunner.withUserConfiguration(KeptHistory.class)
			.withPropertyValues("echomq.queues.billing.max-attempts=2")
			.run((context) -> {
				History history = context.getBean(EchoMqDashboard.class).history(5);
				assertThat(history.kept()).isTrue();
				assertThat(history.queues().get("billing")).containsExactly(new QueueHistory.Minute(60_000, 3, 1));
			});
	}

	private static String[] redis() {
		TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
		return new String[] { "spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port(),
				"echomq.key-prefix=dashboard-autoconfig" };
	}

	@Configuration(proxyBeanMethods = false)
	static class KeptHistory {

		@Bean
		QueueHistory queueHistory() {
			return (queue, minutes) -> List.of(new QueueHistory.Minute(60_000, 3, 1));
		}

	}

	/**
	 * Assert that the runner's context starts without the dashboard: EchoMQ itself is
	 * there unless it was switched off, the dashboard and the named beans are not.
	 */
	private static void assertNoDashboard(AbstractApplicationContextRunner<?, ?, ?> runner, String... absentBeans) {
		runner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(EchoMqDashboard.class);
			for (String name : absentBeans) {
				assertThat(context).doesNotHaveBean(name);
			}
		});
	}

}
