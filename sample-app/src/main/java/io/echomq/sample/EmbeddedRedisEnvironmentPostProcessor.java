package io.echomq.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerOptions;
import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.StringUtils;

/**
 * Starts an embedded default server when the configured Redis is not reachable, so the
 * sample runs on a machine with only a JDK and Maven: a {@code valkey-server} or
 * {@code redis-server} on the PATH, else the Redis binary shipped inside the
 * embedded-redis artifact. Disable with {@code sample.embedded-redis.enabled=false}.
 *
 * @author EchoMQ
 */
public class EmbeddedRedisEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	private static final int CONNECT_TIMEOUT_MS = 500;

	private static final Object LOCK = new Object();

	private static RedisServerProcess server;

	private final Log logger;

	public EmbeddedRedisEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this.logger = logFactory.getLog(EmbeddedRedisEnvironmentPostProcessor.class);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty("sample.embedded-redis.enabled", Boolean.class, true)) {
			return;
		}
		String host = environment.getProperty("spring.data.redis.host", "localhost");
		int port = environment.getProperty("spring.data.redis.port", Integer.class, 6379);
		String url = environment.getProperty("spring.data.redis.url");
		if (StringUtils.hasText(url)) {
			URI uri = URI.create(url);
			host = uri.getHost();
			port = (uri.getPort() > 0) ? uri.getPort() : 6379;
		}
		if (answersPing(host, port)) {
			this.logger.info("Using the Redis server at " + host + ":" + port);
			return;
		}
		RedisServerProcess embedded = startEmbedded();
		this.logger.warn("No Redis server answered at " + host + ":" + port + "; started an embedded "
				+ embedded.flavor() + " " + embedded.version() + " at " + embedded.address() + " from "
				+ embedded.binary().describe() + " (data is not kept)");
		Map<String, Object> properties = new HashMap<>();
		properties.put("spring.data.redis.host", embedded.host());
		properties.put("spring.data.redis.port", embedded.port());
		properties.put("spring.data.redis.url", "redis://" + embedded.address());
		environment.getPropertySources().addFirst(new MapPropertySource("echomqEmbeddedRedis", properties));
	}

	private static RedisServerProcess startEmbedded() {
		synchronized (LOCK) {
			if (server == null || !server.isAlive()) {
				server = RedisServerProcess.start(ServerBinary.locate(), ServerOptions.defaults());
			}
			return server;
		}
	}

	private static boolean answersPing(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
			socket.setSoTimeout(CONNECT_TIMEOUT_MS);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = new byte[64];
			int read = in.read(reply);
			String text = (read > 0) ? new String(reply, 0, read, StandardCharsets.US_ASCII) : "";
			// -NOAUTH still means a server is there; the application's credentials decide the rest
			return text.startsWith("+PONG") || text.startsWith("-NOAUTH");
		}
		catch (IOException ex) {
			return false;
		}
	}

}
