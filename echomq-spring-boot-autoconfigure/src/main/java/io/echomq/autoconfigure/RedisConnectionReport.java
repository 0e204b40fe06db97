package io.echomq.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.MapOutput;
import io.lettuce.core.protocol.CommandType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Names, once the application has started, the Redis EchoMQ works on: one INFO line with
 * the mode (standalone, Sentinel or cluster), the address, the master name and Sentinels
 * or the cluster seeds, and the server and version (asked with {@code HELLO}, which the
 * least-privilege ACL line grants). A server that does not answer gets one WARN line
 * naming where it was looked for.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public class RedisConnectionReport implements ApplicationListener<ApplicationStartedEvent> {

	private static final Log logger = LogFactory.getLog(RedisConnectionReport.class);

	private static final Duration HELLO_TIMEOUT = Duration.ofSeconds(5);

	private final RedisConnectionFactory connectionFactory;

	/**
	 * Create a report on the given connection factory.
	 * @param connectionFactory the connection factory EchoMQ uses
	 */
	public RedisConnectionReport(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	@Override
	public void onApplicationEvent(ApplicationStartedEvent event) {
		String target = target(this.connectionFactory);
		Map<String, String> hello;
		try {
			hello = new StringRedisTemplate(this.connectionFactory)
				.execute((RedisCallback<Map<String, String>>) RedisConnectionReport::hello);
		}
		catch (DataAccessException ex) {
			logger.warn("EchoMQ cannot reach Redis " + target + " yet (" + ex.getMostSpecificCause().getMessage()
					+ "); its listeners and maintenance keep trying");
			return;
		}
		logger.info("EchoMQ uses Redis " + target + ", " + version(hello));
	}

	/**
	 * Describe where a connection factory connects.
	 * @param connectionFactory the connection factory
	 * @return e.g. {@code standalone at localhost:6379} or
	 * {@code cluster, seeds 10.0.0.1:7000, 10.0.0.2:7000}
	 */
	static String target(RedisConnectionFactory connectionFactory) {
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
			return "through " + connectionFactory.getClass().getName();
		}
		String tls = lettuce.isUseSsl() ? " (TLS)" : "";
		RedisClusterConfiguration cluster = lettuce.getClusterConfiguration();
		if (lettuce.isClusterAware() && cluster != null) {
			return "cluster, seeds " + nodes(cluster.getClusterNodes()) + tls;
		}
		RedisSentinelConfiguration sentinel = lettuce.getSentinelConfiguration();
		if (lettuce.isRedisSentinelAware() && sentinel != null) {
			String master = (sentinel.getMaster() != null) ? sentinel.getMaster().getName() : "?";
			return "Sentinel, master '" + master + "' via " + nodes(sentinel.getSentinels()) + database(lettuce) + tls;
		}
		if (lettuce.getSocketConfiguration() != null) {
			return "standalone at unix socket " + lettuce.getSocketConfiguration().getSocket() + database(lettuce);
		}
		return "standalone at " + lettuce.getHostName() + ":" + lettuce.getPort() + database(lettuce) + tls;
	}

	/**
	 * Ask the server who it is: {@code HELLO} without arguments, which answers the
	 * server's name, version and mode and changes nothing (the least-privilege ACL line
	 * grants it; {@code INFO} it does not).
	 * @param connection the connection
	 * @return the answer's text fields, empty when there is none (not a Lettuce
	 * connection, or the command failed)
	 */
	@SuppressWarnings("unchecked")
	static Map<String, String> hello(RedisConnection connection) {
		if (!(connection.getNativeConnection() instanceof BaseRedisAsyncCommands<?, ?> commands)) {
			return Map.of();
		}
		try {
			Map<?, ?> reply = ((BaseRedisAsyncCommands<byte[], byte[]>) commands)
				.dispatch(CommandType.HELLO, new MapOutput<>(ByteArrayCodec.INSTANCE))
				.get(HELLO_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			Map<String, String> fields = new LinkedHashMap<>();
			reply.forEach((key, value) -> fields.put(text(key), text(value)));
			return fields;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Map.of();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			logger.debug("HELLO failed", ex);
			return Map.of();
		}
	}

	/**
	 * Name the server and its version from its {@code HELLO} answer.
	 * @param hello the answer's fields
	 * @return e.g. {@code Valkey 8.0.1} or {@code Redis 7.2.4}
	 */
	static String version(@Nullable Map<String, String> hello) {
		String version = (hello != null) ? hello.get("version") : null;
		if (version == null) {
			return "server version unknown";
		}
		String server = hello.getOrDefault("server", "redis");
		String name = server.isEmpty() ? server : Character.toUpperCase(server.charAt(0)) + server.substring(1);
		return name + " " + version;
	}

	private static String text(@Nullable Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
	}

	private static String nodes(Iterable<RedisNode> nodes) {
		return StreamSupport.stream(nodes.spliterator(), false)
			.map((node) -> node.getHost() + ":" + node.getPort())
			.collect(Collectors.joining(", "));
	}

	private static String database(LettuceConnectionFactory lettuce) {
		return (lettuce.getDatabase() != 0) ? ", database " + lettuce.getDatabase() : "";
	}

}
