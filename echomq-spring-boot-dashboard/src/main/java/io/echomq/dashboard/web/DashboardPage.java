package io.echomq.dashboard.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;
import org.springframework.web.util.HtmlUtils;

/**
 * The dashboard's files, shipped in the jar: the HTML shell every page is served from
 * (its settings filled in as {@code <meta>} tags, HTML-escaped), the script and the style
 * sheet. Nothing is loaded from anywhere else.
 *
 * @author EchoMQ
 */
final class DashboardPage {

	static final String LOCATION = "io/echomq/dashboard/static/";

	private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z]+)\\}\\}");

	private static final Map<String, MediaType> ASSETS = Map.of("app.js",
			MediaType.parseMediaType("text/javascript;charset=UTF-8"), "app.css",
			MediaType.parseMediaType("text/css;charset=UTF-8"), "favicon.svg",
			MediaType.parseMediaType("image/svg+xml"));

	private final String shell;

	private final String error;

	private final Map<String, byte[]> assets = new LinkedHashMap<>();

	DashboardPage() {
		this.shell = new String(read("index.html"), StandardCharsets.UTF_8);
		this.error = new String(read("error.html"), StandardCharsets.UTF_8);
		ASSETS.keySet().forEach((name) -> this.assets.put(name, read(name)));
	}

	String shell(Map<String, String> values) {
		return fill(this.shell, values);
	}

	String error(Map<String, String> values) {
		return fill(this.error, values);
	}

	byte[] asset(String name) {
		byte[] bytes = this.assets.get(name);
		Assert.state(bytes != null, () -> "No asset " + name);
		return bytes;
	}

	boolean hasAsset(String name) {
		return this.assets.containsKey(name);
	}

	MediaType mediaType(String name) {
		return ASSETS.get(name);
	}

	private static String fill(String template, Map<String, String> values) {
		Matcher matcher = PLACEHOLDER.matcher(template);
		StringBuilder html = new StringBuilder(template.length() + 256);
		while (matcher.find()) {
			String value = values.get(matcher.group(1));
			Assert.state(value != null, () -> "No value for " + matcher.group());
			matcher.appendReplacement(html, Matcher.quoteReplacement(HtmlUtils.htmlEscape(value, "UTF-8")));
		}
		matcher.appendTail(html);
		return html.toString();
	}

	private static byte[] read(String name) {
		ClassPathResource resource = new ClassPathResource(LOCATION + name, DashboardPage.class.getClassLoader());
		try (InputStream in = resource.getInputStream()) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read EchoMQ dashboard file " + LOCATION + name, ex);
		}
	}

}
