package io.echomq.dashboard.web;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.Assert;

/**
 * {@link DashboardSecurity} under Spring Security: actions need a role (checked with
 * {@link HttpServletRequest#isUserInRole(String)}, which Spring Security answers from the
 * {@code ROLE_} authorities), and the page echoes Spring Security's CSRF token when its
 * filter exposed one.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class SpringSecurityDashboardSecurity implements DashboardSecurity {

	private final String writeRole;

	/**
	 * Create the security.
	 * @param writeRole the role an action needs
	 */
	public SpringSecurityDashboardSecurity(String writeRole) {
		Assert.hasText(writeRole, "'writeRole' must not be empty");
		this.writeRole = writeRole;
	}

	@Override
	public String writeRole() {
		return this.writeRole;
	}

	@Override
	public @Nullable CsrfHeader csrfHeader(HttpServletRequest request) {
		if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) {
			return new CsrfHeader(token.getHeaderName(), token.getToken());
		}
		return null;
	}

}
