package io.echomq.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.echomq.dashboard.web.DashboardWriteGuard;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A user of the dashboard over real HTTP: keeps cookies, reads the CSRF tokens a page
 * embeds, and sends them (or not) with actions, as the page's script does.
 *
 * @author EchoMQ
 */
final class DashboardClient {

	private static final Pattern META = Pattern.compile("<meta name=\"echomq-([a-z-]+)\" content=\"([^\"]*)\">");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

	private final String origin;

	private final String path;

	private final @Nullable String authorization;

	private final Map<String, String> meta = new LinkedHashMap<>();

	DashboardClient(int port, String path) {
		this(port, path, null, null);
	}

	DashboardClient(int port, String path, @Nullable String user, @Nullable String password) {
		this.origin = "http://localhost:" + port;
		this.path = path;
		this.authorization = (user != null)
				? "Basic "
						+ Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
				: null;
	}

	/**
	 * Open the overview page and keep the settings it embeds.
	 * @return the page
	 */
	Response open() {
		Response page = get("");
		Matcher matcher = META.matcher(page.body());
		while (matcher.find()) {
			this.meta.put(matcher.group(1), matcher.group(2).replace("&quot;", "\"").replace("&amp;", "&"));
		}
		return page;
	}

	String meta(String name) {
		return this.meta.getOrDefault(name, "");
	}

	Response get(String relative) {
		return send(request(relative).GET());
	}

	/**
	 * Post an action as the page does: both CSRF tokens, and this server as origin.
	 * @param relative the path below the dashboard's
	 * @return the response
	 */
	Response post(String relative) {
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put(DashboardWriteGuard.HEADER, meta("csrf-token"));
		if (!meta("app-csrf-header").isEmpty()) {
			headers.put(meta("app-csrf-header"), meta("app-csrf-token"));
		}
		headers.put("Origin", this.origin);
		return post(relative, headers, "");
	}

	Response post(String relative, Map<String, String> headers, String body) {
		HttpRequest.Builder request = request(relative).POST(HttpRequest.BodyPublishers.ofString(body));
		headers.forEach(request::header);
		return send(request);
	}

	private HttpRequest.Builder request(String relative) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.origin + this.path + relative));
		if (this.authorization != null) {
			request.header("Authorization", this.authorization);
		}
		return request;
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.body(), response.headers());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An answer.
	 *
	 * @param status the status
	 * @param body the body
	 * @param headers the headers
	 */
	record Response(int status, String body, HttpHeaders headers) {

		JsonNode json() {
			return JSON.readTree(this.body);
		}

		String message() {
			return json().get("message").asString();
		}

		@Override
		public String toString() {
			return this.status + " " + this.body;
		}

	}

}
