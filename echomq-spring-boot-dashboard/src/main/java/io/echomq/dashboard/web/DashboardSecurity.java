package io.echomq.dashboard.web;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * What the dashboard asks of the application's security: the role an action needs, and
 * the CSRF token of the application's own protection, which the page sends along with the
 * dashboard's.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface DashboardSecurity {

	/**
	 * Return the role an action needs.
	 * @return the role, or {@code null} when actions need none (no Spring Security)
	 */
	@Nullable String writeRole();

	/**
	 * Return the application's CSRF token for a request, to be echoed in a header.
	 * @param request the request
	 * @return the token, or {@code null} if the application has no CSRF protection
	 */
	@Nullable CsrfHeader csrfHeader(HttpServletRequest request);

	/**
	 * Return the security of an application without Spring Security: actions need no role
	 * and only the dashboard's own CSRF token guards them.
	 * @return the security
	 */
	static DashboardSecurity none() {
		return new DashboardSecurity() {

			@Override
			public @Nullable String writeRole() {
				return null;
			}

			@Override
			public @Nullable CsrfHeader csrfHeader(HttpServletRequest request) {
				return null;
			}

		};
	}

	/**
	 * A CSRF token sent as a request header.
	 *
	 * @param name the header name
	 * @param token the token
	 */
	record CsrfHeader(String name, String token) {

	}

}
