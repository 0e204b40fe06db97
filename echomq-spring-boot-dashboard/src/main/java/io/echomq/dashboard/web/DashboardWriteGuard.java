package io.echomq.dashboard.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Pattern;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseCookie;
import org.springframework.util.Assert;

/**
 * Decides whether an action may run. In order: the dashboard is not read-only; the
 * request, if it says where it comes from ({@code Origin}, else {@code Referer}), comes
 * from this server; it carries the dashboard's CSRF token in the {@value #HEADER} header,
 * equal to the {@value #COOKIE} cookie the page set (a double-submit token: another site
 * can neither read the cookie nor set the header, and it needs no session, so it works
 * across nodes behind a load balancer); and the user has the write role when there is
 * one. Spring Security's own CSRF protection, when on, checks its token before any of
 * this.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class DashboardWriteGuard {

	/** The header an action carries the dashboard's CSRF token in. */
	public static final String HEADER = "X-EchoMQ-CSRF";

	/** The cookie holding the dashboard's CSRF token. */
	public static final String COOKIE = "ECHOMQ_CSRF";

	private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");

	private static final SecureRandom RANDOM = new SecureRandom();

	private final boolean readOnly;

	private final @Nullable String writeRole;

	/**
	 * Create a guard.
	 * @param readOnly whether every action is refused
	 * @param writeRole the role an action needs, or {@code null} for none
	 */
	public DashboardWriteGuard(boolean readOnly, @Nullable String writeRole) {
		this.readOnly = readOnly;
		this.writeRole = writeRole;
	}

	/**
	 * Return whether the user of a request may take actions at all, for the page to show
	 * or hide them; {@link #check(HttpServletRequest)} still decides each one.
	 * @param request the request
	 * @return whether actions are open to this user
	 */
	public boolean canWrite(HttpServletRequest request) {
		return !this.readOnly && (this.writeRole == null || request.isUserInRole(this.writeRole));
	}

	/**
	 * Check an action's request.
	 * @param request the request
	 * @return why it is refused, or {@code null} if it may run
	 */
	public @Nullable Refusal check(HttpServletRequest request) {
		if (this.readOnly) {
			return new Refusal(HttpStatus.FORBIDDEN,
					"The EchoMQ dashboard is read-only (echomq.dashboard.read-only=true): no action is taken");
		}
		String origin = request.getHeader(HttpHeaders.ORIGIN);
		String source = (origin != null) ? origin : request.getHeader(HttpHeaders.REFERER);
		if (source != null && !isSameOrigin(source, request)) {
			return new Refusal(HttpStatus.FORBIDDEN, "Cross-origin action refused: the request comes from '"
					+ abbreviate(source) + "', not from this server");
		}
		String sent = request.getHeader(HEADER);
		if (sent == null || sent.isEmpty()) {
			return new Refusal(HttpStatus.FORBIDDEN,
					"Missing CSRF token: an action must carry the " + HEADER + " header the dashboard page sends");
		}
		String expected = cookie(request);
		if (expected == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
				expected.getBytes(StandardCharsets.UTF_8))) {
			return new Refusal(HttpStatus.FORBIDDEN,
					"Invalid CSRF token: reload the dashboard page to get a fresh one");
		}
		if (this.writeRole != null && !request.isUserInRole(this.writeRole)) {
			return new Refusal(HttpStatus.FORBIDDEN,
					"Actions need role '" + this.writeRole + "'" + ((request.getUserPrincipal() != null)
							? ", which " + request.getUserPrincipal().getName() + " lacks" : "; sign in first"));
		}
		return null;
	}

	/**
	 * Return the CSRF token of a page: the one its cookie holds, or a new one with the
	 * cookie to set.
	 * @param request the page request
	 * @param path the cookie path (the dashboard's)
	 * @return the token to embed in the page
	 */
	public PageToken token(HttpServletRequest request, String path) {
		String token = cookie(request);
		if (token != null) {
			return new PageToken(token, null);
		}
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);
		token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
		return new PageToken(token,
				ResponseCookie.from(COOKIE, token)
					.path(path)
					.httpOnly(true)
					.secure(request.isSecure())
					.sameSite("Strict")
					.build());
	}

	private static @Nullable String cookie(HttpServletRequest request) {
		Cookie[] cookies = request.getCookies();
		if (cookies == null) {
			return null;
		}
		for (Cookie cookie : cookies) {
			if (COOKIE.equals(cookie.getName()) && cookie.getValue() != null
					&& TOKEN.matcher(cookie.getValue()).matches()) {
				return cookie.getValue();
			}
		}
		return null;
	}

	private static boolean isSameOrigin(String source, HttpServletRequest request) {
		URI uri;
		try {
			uri = URI.create(source);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
		if (uri.getScheme() == null || uri.getHost() == null) {
			return false;
		}
		String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
		return scheme.equals(request.getScheme().toLowerCase(Locale.ROOT))
				&& uri.getHost().equalsIgnoreCase(request.getServerName())
				&& port(scheme, uri.getPort()) == port(scheme, request.getServerPort());
	}

	private static int port(String scheme, int port) {
		if (port > 0) {
			return port;
		}
		return "https".equals(scheme) ? 443 : 80;
	}

	private static String abbreviate(String text) {
		return (text.length() <= 100) ? text : text.substring(0, 100) + "...";
	}

	/**
	 * The CSRF token of a page.
	 *
	 * @param value the token
	 * @param cookie the cookie to set, or {@code null} if the request had it
	 */
	public record PageToken(String value, @Nullable ResponseCookie cookie) {

	}

	/**
	 * Why an action is refused.
	 *
	 * @param status the HTTP status
	 * @param message what was wrong
	 */
	public record Refusal(HttpStatus status, String message) {

		/**
		 * Create a refusal.
		 * @param status the status
		 * @param message the message
		 */
		public Refusal {
			Assert.notNull(status, "'status' must not be null");
		}

	}

}
