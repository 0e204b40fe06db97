package io.echomq.dashboard.autoconfigure;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The EchoMQ dashboard, under {@code echomq.dashboard}.
 *
 * @param enabled Whether to serve the dashboard.
 * @param path Path the dashboard is served at, below the servlet context path.
 * @param readOnly Whether to refuse every action (replay, delete, purge, pause, resume).
 * @param writeRole Role an action needs when Spring Security is on the class path.
 * @param showValues When to show job payloads and extra job fields unsanitized. When
 * unset, management.endpoint.echomq.show-values (and its roles) applies, so one setting
 * governs the endpoint and the dashboard.
 * @param roles Roles allowed to see unsanitized payloads when show-values is
 * when-authorized; when empty, every authenticated user is.
 * @param refresh How often an open page polls for fresh counts.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.dashboard")
public record EchoMqDashboardProperties(@DefaultValue("true") boolean enabled, @DefaultValue("/echomq") String path,
		@DefaultValue("false") boolean readOnly, @DefaultValue("ECHOMQ_ADMIN") String writeRole,
		@Nullable Show showValues, Set<String> roles, @DefaultValue("5s") Duration refresh) {

	/**
	 * Create the properties.
	 * @param enabled Whether to serve the dashboard.
	 * @param path The path.
	 * @param readOnly Whether actions are refused.
	 * @param writeRole The role actions need.
	 * @param showValues When to show payloads, or {@code null} for the endpoint's.
	 * @param roles The roles that may see payloads.
	 * @param refresh The polling interval.
	 */
	public EchoMqDashboardProperties {
		roles = (roles != null) ? Set.copyOf(roles) : Set.of();
	}

}
