package io.echomq.core;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Unique jobs on a local cluster.
 *
 * @author EchoMQ
 */
class ClusterUniqueJobsTests extends AbstractUniqueJobsTests {

	private final LocalCluster cluster = TestRedisServer.sharedCluster();

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		return new LettuceConnectionFactory(new RedisClusterConfiguration(this.cluster.seedNodes()));
	}

	@Override
	protected String[] connectionArguments() {
		return new String[] { "cluster", String.join(",", this.cluster.seedNodes()) };
	}

}
