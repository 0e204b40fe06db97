package io.echomq.autoconfigure;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code echomq} endpoint's link paths with their fixed segments written out: an
 * actuator operation maps each path segment to a selector, so {@code queues/{queue}} is
 * listed as {@code {queues}/{queue}}, though only {@code queues} answers there. Shared by
 * the servlet and the reactive rewrite of the discovery page.
 *
 * @author EchoMQ
 */
final class EndpointLinkPaths {

	/** The selectors that only ever match their own name. */
	private static final Pattern FIXED = Pattern.compile("/\\{(queues|schedules|dead)\\}(?=/|$|\")");

	/** A link of the endpoint in the discovery page's JSON. */
	private static final Pattern HREF = Pattern.compile("\"href\"\\s*:\\s*\"[^\"]*/echomq(?:/[^\"]*)?\"");

	private EndpointLinkPaths() {
	}

	/**
	 * Write out the fixed segments of one link of the endpoint.
	 * @param href the link
	 * @return the link with {@code {queues}}, {@code {schedules}} and {@code {dead}} as
	 * plain segments
	 */
	static String fixed(String href) {
		return FIXED.matcher(href).replaceAll("/$1");
	}

	/**
	 * Write out the fixed segments of every link of the endpoint in a discovery page.
	 * @param json the page, as JSON
	 * @return the page with the endpoint's links {@link #fixed(String) fixed}
	 */
	static String fixedLinks(String json) {
		Matcher href = HREF.matcher(json);
		StringBuilder out = new StringBuilder(json.length());
		while (href.find()) {
			href.appendReplacement(out, Matcher.quoteReplacement(fixed(href.group())));
		}
		href.appendTail(out);
		return out.toString();
	}

}
