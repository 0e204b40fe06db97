package io.echomq.autoconfigure;

import java.util.Optional;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Refuses to start when the application's Lettuce connection is a cluster connection
 * without any topology refresh (neither periodic nor adaptive): after a failover such a
 * client keeps sending to the dead master, and the queues (or partitions) whose slots it
 * served stall until the application restarts. That happens with a connection factory the
 * application builds itself, with a customizer that replaces EchoMQ's refresh options, or
 * with a cluster that comes from connection details rather than
 * {@code spring.data.redis.cluster.*}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ClusterTopologyRefreshCheck implements SmartInitializingSingleton {

	private final ObjectProvider<RedisConnectionFactory> connectionFactory;

	/**
	 * Create a check of the application's connection factory.
	 * @param connectionFactory the connection factory, if there is exactly one
	 */
	public ClusterTopologyRefreshCheck(ObjectProvider<RedisConnectionFactory> connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		RedisConnectionFactory factory = this.connectionFactory.getIfUnique();
		if (factory != null) {
			check(factory);
		}
	}

	/**
	 * Check one connection factory.
	 * @param connectionFactory the connection factory
	 * @throws IllegalStateException if it is a Lettuce cluster connection without
	 * topology refresh
	 */
	public static void check(RedisConnectionFactory connectionFactory) {
		if (!(connectionFactory instanceof LettuceConnectionFactory lettuce) || !lettuce.isClusterAware()) {
			return;
		}
		Optional<ClientOptions> options = lettuce.getClientConfiguration().getClientOptions();
		ClusterTopologyRefreshOptions refresh = options.filter(ClusterClientOptions.class::isInstance)
			.map((clientOptions) -> ((ClusterClientOptions) clientOptions).getTopologyRefreshOptions())
			.orElse(null);
		if (refresh != null
				&& (refresh.isPeriodicRefreshEnabled() || !refresh.getAdaptiveRefreshTriggers().isEmpty())) {
			return;
		}
		throw new IllegalStateException("The Redis Cluster connection has no topology refresh: after a failover "
				+ "it would keep sending to the failed master, and the EchoMQ queues (or partitions) on that master "
				+ "would stall until the application restarts. Configure the cluster with spring.data.redis.cluster.* "
				+ "(EchoMQ then turns the refresh on), set spring.data.redis.lettuce.cluster.refresh.period "
				+ "(e.g. 1s) and spring.data.redis.lettuce.cluster.refresh.adaptive=true, or give a connection factory "
				+ "of your own ClusterClientOptions with periodic or adaptive ClusterTopologyRefreshOptions; set "
				+ "echomq.cluster.topology-refresh.enabled=false to start without it.");
	}

}
