package io.echomq.dashboard;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.dashboard.DashboardClient.Response;
import io.echomq.dashboard.web.DashboardSecurity;
import io.echomq.dashboard.web.DashboardWriteGuard;
import io.echomq.dashboard.web.SpringSecurityDashboardSecurity;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.ListenerSettings;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in an application secured by Spring Security (HTTP basic, CSRF on):
 * actions need the write role and both CSRF tokens, payloads show only to the roles
 * allowed. Runs in its own Surefire execution, with Spring Security on the class path.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = { DashboardTestApplication.class, EchoMqDashboardSecurityTests.Security.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "echomq.dashboard.show-values=when-authorized", "echomq.dashboard.roles=ECHOMQ_ADMIN" })
class EchoMqDashboardSecurityTests extends DashboardWebTestSupport {

	@Autowired
	private DashboardSecurity security;

	private final TestHandler handler = new TestHandler();

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@AfterEach
	void release() {
		this.handler.release();
	}

	@Test
	void actionsShouldNeedTheWriteRoleAndBothTokens() {
		assertThat(this.security).isInstanceOf(SpringSecurityDashboardSecurity.class);
		assertThat(this.security.writeRole()).isEqualTo("ECHOMQ_ADMIN");
		String queue = DashboardTestApplication.unique("secured");
		this.listeners.register(queue, this.handler, ListenerSettings.builder().maxAttempts(1).build());
		JobId dead = this.template.enqueue(queue, "bad customer");
		QueueInspector inspector = new QueueInspector(this.jobs);
		await().atMost(Duration.ofSeconds(15)).until(() -> inspector.stats(queue).dead() == 1);
		String replay = "/api/queues/" + queue + "/jobs/" + dead + "/replay";
		String deadPage = "/api/queues/" + queue + "/jobs?state=dead";

		assertThat(new DashboardClient(this.port, "/echomq").get("").status()).isEqualTo(401);
		assertThat(new DashboardClient(this.port, "/echomq", "viewer", "wrong").get("/api/overview").status())
			.isEqualTo(401);

		DashboardClient viewer = new DashboardClient(this.port, "/echomq", "viewer", "viewer");
		assertThat(viewer.open().status()).isEqualTo(200);
		assertThat(viewer.meta("can-write")).isEqualTo("false");
		assertThat(viewer.meta("show-values")).isEqualTo("false");
		assertThat(viewer.meta("app-csrf-header")).isEqualTo("X-CSRF-TOKEN");
		assertThat(viewer.meta("app-csrf-token")).isNotEmpty();
		assertThat(viewer.get(deadPage).json().get("jobs").get(0).get("payload").asString()).isEqualTo("******");
		Response refused = viewer.post(replay);
		assertThat(refused.status()).as("%s", refused).isEqualTo(403);
		assertThat(refused.message()).isEqualTo("Actions need role 'ECHOMQ_ADMIN', which viewer lacks");
		assertThat(viewer.post("/api/queues/" + queue + "/pause").status()).isEqualTo(403);
		assertThat(this.listeners.getContainer(queue).isPaused()).isFalse();
		assertThat(inspector.row(queue, dead)).containsEntry("state", "dead");
		String later = DashboardTestApplication.unique("later");
		JobId scheduled = this.template.enqueue(later, "later", EnqueueOptions.delayed(Duration.ofHours(1)));
		for (String action : List.of("/jobs/" + scheduled + "/run", "/jobs/" + scheduled + "/delete",
				"/jobs/" + dead + "/delete", "/jobs/" + scheduled + "/cancel", "/jobs/" + dead + "/cancel",
				"/cluster/pause", "/cluster/resume")) {
			Response verb = viewer
				.post("/api/queues/" + (action.contains(scheduled.toString()) ? later : queue) + action);
			assertRefused(verb, action, "ECHOMQ_ADMIN");
		}
		assertTriggerRefused(viewer, queue, "viewer-tick", "ECHOMQ_ADMIN");
		assertThat(this.admin.isPaused(queue)).isFalse();
		assertThat(inspector.row(later, scheduled)).containsEntry("state", "schedule");
		assertThat(inspector.row(queue, dead)).containsEntry("state", "dead");

		DashboardClient admin = new DashboardClient(this.port, "/echomq", "admin", "admin");
		admin.open();
		assertThat(admin.meta("can-write")).isEqualTo("true");
		assertThat(admin.get(deadPage).json().get("jobs").get(0).get("payload").asString())
			.isEqualTo("\"bad customer\"");
		Response withoutApplicationToken = admin.post(replay,
				Map.of(DashboardWriteGuard.HEADER, admin.meta("csrf-token"), "Origin", "http://localhost:" + this.port),
				"");
		assertThat(withoutApplicationToken.status()).as("Spring Security's CSRF filter").isEqualTo(403);
		Response withoutDashboardToken = admin.post(replay,
				Map.of(admin.meta("app-csrf-header"), admin.meta("app-csrf-token")), "");
		assertThat(withoutDashboardToken.status()).isEqualTo(403);
		assertThat(withoutDashboardToken.message()).contains("Missing CSRF token");
		assertThat(inspector.row(queue, dead)).containsEntry("state", "dead");
		assertThat(inspector.stats(queue).counters()).doesNotContainKey("replayed");

		this.handler.heal();
		Response replayed = admin.post(replay);
		assertThat(replayed.status()).as("%s", replayed).isEqualTo(200);
		await().atMost(Duration.ofSeconds(15)).until(() -> inspector.row(queue, dead).isEmpty());
		assertThat(inspector.stats(queue).counters()).containsEntry("replayed", 1L).containsEntry("completed", 1L);
		Response ran = admin.post("/api/queues/" + later + "/jobs/" + scheduled + "/run");
		assertThat(ran.status()).as("%s", ran).isEqualTo(200);
		assertThat(inspector.row(later, scheduled)).containsEntry("state", "pending");
		Response deleted = admin.post("/api/queues/" + later + "/jobs/" + scheduled + "/delete");
		assertThat(deleted.status()).as("%s", deleted).isEqualTo(200);
		assertThat(inspector.row(later, scheduled)).isEmpty();
		Response paused = admin.post("/api/queues/" + queue + "/cluster/pause");
		assertThat(paused.status()).as("%s", paused).isEqualTo(200);
		assertThat(this.admin.isPaused(queue)).isTrue();
		assertThat(admin.post("/api/queues/" + queue + "/cluster/resume").status()).isEqualTo(200);
		assertThat(this.admin.isPaused(queue)).isFalse();
	}

	@Configuration(proxyBeanMethods = false)
	static class Security {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests.dispatcherTypeMatchers(DispatcherType.ERROR)
				.permitAll()
				.anyRequest()
				.authenticated()).httpBasic(Customizer.withDefaults());
			return http.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("admin").password("{noop}admin").roles("ECHOMQ_ADMIN").build(),
					User.withUsername("viewer").password("{noop}viewer").roles("VIEWER").build());
		}

	}

}
