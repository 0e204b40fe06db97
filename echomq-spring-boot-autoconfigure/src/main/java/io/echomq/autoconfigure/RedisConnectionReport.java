package io.echomq.autoconfigure;

import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Names, once the application has started, the Redis EchoMQ works on: one INFO line with
 * the mode (standalone, Sentinel or cluster), the address, the master name and Sentinels
 * or the cluster seeds, and the server and version ({@code INFO server}). A user who may
 * not run {@code INFO} (the least-privilege ACL line) gets the line without the version;
 * a server that does not answer, one WARN line naming where it was looked for.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public class RedisConnectionReport implements ApplicationListener<ApplicationStartedEvent> {

	private static final Log logger = LogFactory.getLog(RedisConnectionReport.class);

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
		Properties info;
		try {
			info = new StringRedisTemplate(this.connectionFactory)
				.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
		}
		catch (DataAccessException ex) {
			String reason = ex.getMostSpecificCause().getMessage();
			if (String.valueOf(reason).contains("NOPERM")) {
				logger.info("EchoMQ uses Redis " + target + " (server version unknown: this user may not run INFO)");
			}
			else {
				logger.warn("EchoMQ cannot reach Redis " + target + " yet (" + reason
						+ "); its listeners and maintenance keep trying");
			}
			return;
		}
		logger.info("EchoMQ uses Redis " + target + ", " + version(info));
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
	 * Name the server and its version from its {@code INFO server} answer (on a cluster,
	 * every node's, their fields prefixed by the node).
	 * @param info the answer
	 * @return e.g. {@code Valkey 8.0.1} or {@code Redis 7.2.4}
	 */
	static String version(@Nullable Properties info) {
		if (info == null) {
			return "server version unknown";
		}
		Set<String> valkey = values(info, "valkey_version");
		if (!valkey.isEmpty()) {
			return "Valkey " + String.join(", ", valkey);
		}
		Set<String> redis = values(info, "redis_version");
		return redis.isEmpty() ? "server version unknown" : "Redis " + String.join(", ", redis);
	}

	private static Set<String> values(Properties info, String field) {
		Set<String> values = new TreeSet<>();
		for (String name : info.stringPropertyNames()) {
			if (name.equals(field) || name.endsWith("." + field)) {
				values.add(info.getProperty(name).strip());
			}
		}
		return values;
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
