package io.echomq.core;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Fair-lane tests on a real local 3-master cluster: every transition must run unchanged
 * because every key of a queue is declared and hashes to one slot.
 *
 * @author EchoMQ
 */
class ClusterLanesTests extends AbstractLanesTests {

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		LocalCluster cluster = TestRedisServer.sharedCluster();
		return new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.seedNodes()));
	}

}
