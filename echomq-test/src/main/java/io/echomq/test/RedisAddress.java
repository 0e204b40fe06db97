package io.echomq.test;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * A {@code redis://host:port} address.
 *
 * @param host the host
 * @param port the port
 * @author EchoMQ
 * @since 0.1.0
 */
record RedisAddress(String host, int port) {

	private static final int DEFAULT_PORT = 6379;

	/**
	 * Parse a URL such as {@code redis://127.0.0.1:6380}; the port defaults to 6379.
	 * @param url the URL
	 * @return the address
	 * @throws IllegalArgumentException if the URL is not a {@code redis://} URL with a
	 * host
	 */
	static RedisAddress parse(String url) {
		try {
			URI uri = new URI(url.strip());
			if (!"redis".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
				throw new IllegalArgumentException("Expected redis://host:port but got '" + url + "'");
			}
			return new RedisAddress(uri.getHost(), (uri.getPort() != -1) ? uri.getPort() : DEFAULT_PORT);
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("Expected redis://host:port but got '" + url + "'", ex);
		}
	}

}
