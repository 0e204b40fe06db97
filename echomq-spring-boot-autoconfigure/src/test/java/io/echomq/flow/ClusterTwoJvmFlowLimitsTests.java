package io.echomq.flow;

import java.util.List;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link AbstractTwoJvmFlowLimitsTests} on the shared local cluster (three masters): both
 * JVMs reach the queue's keys through cluster connections.
 *
 * @author EchoMQ
 */
class ClusterTwoJvmFlowLimitsTests extends AbstractTwoJvmFlowLimitsTests {

	private final LocalCluster cluster = TestRedisServer.sharedCluster();

	@Override
	protected List<String> connection() {
		return List.of("spring.data.redis.cluster.nodes=" + String.join(",", this.cluster.seedNodes()));
	}

	@Override
	protected LettuceConnectionFactory probeConnection() {
		return new LettuceConnectionFactory(new RedisClusterConfiguration(this.cluster.seedNodes()));
	}

}
