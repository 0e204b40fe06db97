package io.echomq.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What EchoMQ configures on Redis Cluster connections, under {@code echomq.cluster}.
 *
 * @param topologyRefresh Lettuce's cluster topology refresh.
 * @param rejectWhileDisconnected Whether commands for a cluster node the client is not
 * connected to fail at once, with those in flight when its connection drops, instead of
 * waiting for a reconnect until the command timeout (spring.data.redis.timeout, 60s by
 * default); applied with the topology refresh.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.cluster")
public record EchoMqClusterProperties(@DefaultValue TopologyRefresh topologyRefresh,
		@DefaultValue("true") boolean rejectWhileDisconnected) {

	/**
	 * Lettuce's cluster topology refresh, which lets a client find the replica promoted
	 * after a master failed.
	 *
	 * @param enabled Whether EchoMQ turns on Lettuce's adaptive and periodic cluster
	 * topology refresh where spring.data.redis.lettuce.cluster.refresh.* leave them
	 * unset, and refuses to start on a cluster connection that has neither.
	 */
	public record TopologyRefresh(@DefaultValue("true") boolean enabled) {

	}

}
