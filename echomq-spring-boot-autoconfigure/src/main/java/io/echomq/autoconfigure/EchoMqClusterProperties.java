package io.echomq.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What EchoMQ configures on Redis Cluster connections, under {@code echomq.cluster}.
 *
 * @param topologyRefresh Lettuce's cluster topology refresh.
 * @author EchoMQ
 * @since 0.1.0
 */
@ConfigurationProperties("echomq.cluster")
public record EchoMqClusterProperties(@DefaultValue TopologyRefresh topologyRefresh) {

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
