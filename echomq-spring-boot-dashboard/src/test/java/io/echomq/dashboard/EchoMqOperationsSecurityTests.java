package io.echomq.dashboard;

import java.time.Duration;
import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.dashboard.DashboardClient.Response;
import io.echomq.listener.ListenerSettings;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
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
 * The Spring Security configuration docs/security.md shows, protecting the {@code echomq}
 * endpoint and the dashboard by role: reads for {@code ECHOMQ_VIEWER} and
 * {@code ECHOMQ_ADMIN}, writes for {@code ECHOMQ_ADMIN} only; anonymous requests are
 * refused, and even an administrator's browser cannot be made to write by another site
 * (the endpoint's writes need a JSON body). Runs in the Surefire execution with Spring
 * Security on the class path.
 *
 * @author EchoMQ
 */
@SpringBootTest(classes = { DashboardTestApplication.class, EchoMqOperationsSecurityTests.Security.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=echomq", "echomq.dashboard.roles=ECHOMQ_ADMIN" })
class EchoMqOperationsSecurityTests extends DashboardWebTestSupport {

	private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		DashboardTestApplication.redis(registry);
	}

	@Test
	void endpointAndDashboardWritesShouldNeedTheAdminRole() {
		String queue = DashboardTestApplication.unique("guarded");
		this.listeners.register(queue, (job, context) -> {
			throw new IllegalStateException("no such customer");
		}, ListenerSettings.builder().maxAttempts(1).build());
		JobId dead = this.template.enqueue(queue, "bad customer");
		await().atMost(WAIT).until(() -> this.inspector.stats(queue).dead() == 1);
		String replay = "/echomq/queues/" + queue + "/dead/" + dead + "/replay";

		DashboardClient anonymous = new DashboardClient(this.port, "/actuator");
		assertThat(anonymous.get("/echomq").status()).isEqualTo(401);
		assertThat(anonymous.post(replay, JSON, "{}").status()).isEqualTo(401);
		assertThat(new DashboardClient(this.port, "/actuator", "other", "other").get("/echomq").status())
			.isEqualTo(403);

		DashboardClient viewer = new DashboardClient(this.port, "/actuator", "viewer", "viewer");
		assertThat(viewer.get("/echomq/queues/" + queue).status()).isEqualTo(200);
		assertThat(viewer.post(replay, JSON, "{}").status()).isEqualTo(403);
		assertThat(viewer.post("/echomq/queues/" + queue + "/pause", JSON, "{\"scope\":\"cluster\"}").status())
			.isEqualTo(403);
		DashboardClient viewerDashboard = new DashboardClient(this.port, "/echomq", "viewer", "viewer");
		assertThat(viewerDashboard.open().status()).isEqualTo(200);
		assertThat(viewerDashboard.post("/api/queues/" + queue + "/jobs/" + dead + "/replay").status()).isEqualTo(403);

		DashboardClient admin = new DashboardClient(this.port, "/actuator", "admin", "admin");
		Response crossSite = admin.post(replay,
				Map.of("Origin", "https://evil.example", "Content-Type", "application/x-www-form-urlencoded"),
				"reason=x");
		assertThat(crossSite.status()).as("%s", crossSite).isEqualTo(415);
		assertThat(admin.post(replay, Map.of("Origin", "https://evil.example"), "").status()).isEqualTo(415);
		assertThat(this.inspector.row(queue, dead)).containsEntry("state", "dead");
		assertThat(this.admin.isPaused(queue)).isFalse();

		Response replayed = admin.post(replay, JSON, "{\"reason\":\"customer fixed\"}");
		assertThat(replayed.status()).as("%s", replayed).isEqualTo(200);
		assertThat(replayed.json().get("state").asString()).isEqualTo("pending");
		DashboardClient adminDashboard = new DashboardClient(this.port, "/echomq", "admin", "admin");
		adminDashboard.open();
		Response paused = adminDashboard.post("/api/queues/" + queue + "/cluster/pause");
		assertThat(paused.status()).as("%s", paused).isEqualTo(200);
		assertThat(this.admin.isPaused(queue)).isTrue();
		this.admin.resume(queue);
	}

	/**
	 * The configuration docs/security.md prints.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Security {

		// tag::security[]
		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests.dispatcherTypeMatchers(DispatcherType.ERROR)
				.permitAll()
				.requestMatchers(HttpMethod.GET, "/actuator/echomq/**", "/echomq/**")
				.hasAnyRole("ECHOMQ_VIEWER", "ECHOMQ_ADMIN")
				.requestMatchers("/actuator/echomq/**", "/echomq/**")
				.hasRole("ECHOMQ_ADMIN")
				.anyRequest()
				.authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.ignoringRequestMatchers("/actuator/**"));
			return http.build();
		}
		// end::security[]

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("admin").password("{noop}admin").roles("ECHOMQ_ADMIN").build(),
					User.withUsername("viewer").password("{noop}viewer").roles("ECHOMQ_VIEWER").build(),
					User.withUsername("other").password("{noop}other").roles("USER").build());
		}

	}

}
