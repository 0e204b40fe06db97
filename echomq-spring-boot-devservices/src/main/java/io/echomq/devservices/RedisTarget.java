package io.echomq.devservices;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Where the application's {@code spring.data.redis.*} properties tell it to connect, as
 * Spring Boot reads them: Sentinel, else Cluster, else the URL, else host and port.
 *
 * @param topology {@code sentinel}, {@code cluster} or {@code standalone}
 * @param host the standalone host
 * @param port the standalone port
 * @param source which properties named the address
 * @author EchoMQ
 * @since 0.1.0
 */
record RedisTarget(String topology, String host, int port, String source) {

	private static final String DEFAULT_HOST = "localhost";

	private static final int DEFAULT_PORT = 6379;

	static RedisTarget of(Environment environment) {
		if (isSet(environment, "spring.data.redis.sentinel.master")
				|| isSet(environment, "spring.data.redis.sentinel.nodes")) {
			return new RedisTarget("sentinel", "", 0, "spring.data.redis.sentinel.*");
		}
		if (isSet(environment, "spring.data.redis.cluster.nodes")) {
			return new RedisTarget("cluster", "", 0, "spring.data.redis.cluster.nodes");
		}
		String url = environment.getProperty("spring.data.redis.url");
		if (StringUtils.hasText(url)) {
			URI uri = parse(url);
			return new RedisTarget("standalone", (uri.getHost() != null) ? uri.getHost() : DEFAULT_HOST,
					(uri.getPort() > 0) ? uri.getPort() : DEFAULT_PORT, "spring.data.redis.url");
		}
		String host = environment.getProperty("spring.data.redis.host", DEFAULT_HOST);
		Integer port = environment.getProperty("spring.data.redis.port", Integer.class, DEFAULT_PORT);
		boolean configured = isSet(environment, "spring.data.redis.host")
				|| isSet(environment, "spring.data.redis.port");
		return new RedisTarget("standalone", host, port,
				configured ? "spring.data.redis.host/port" : "Spring Boot's default");
	}

	boolean standalone() {
		return "standalone".equals(this.topology);
	}

	/**
	 * Return whether the host is this machine, without a name lookup for anything but
	 * {@code localhost}.
	 * @return {@code true} for {@code localhost} and loopback addresses
	 */
	boolean local() {
		String host = this.host.toLowerCase(Locale.ROOT);
		if (host.equals(DEFAULT_HOST) || host.endsWith(".localhost")) {
			return true;
		}
		@Nullable InetAddress literal = literal(host);
		return literal != null && literal.isLoopbackAddress();
	}

	String address() {
		return this.host + ":" + this.port;
	}

	private static @Nullable InetAddress literal(String host) {
		String bare = (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
		boolean ipv4 = bare.matches("\\d{1,3}(\\.\\d{1,3}){3}");
		boolean ipv6 = bare.contains(":");
		if (!ipv4 && !ipv6) {
			return null;
		}
		try {
			return InetAddress.getByName(bare);
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	private static URI parse(String url) {
		try {
			return URI.create(url.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("spring.data.redis.url is not a valid URL: '" + url + "'", ex);
		}
	}

	private static boolean isSet(Environment environment, String name) {
		return StringUtils.hasText(environment.getProperty(name));
	}

}
