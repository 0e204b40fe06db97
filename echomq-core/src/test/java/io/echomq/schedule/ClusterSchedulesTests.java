package io.echomq.schedule;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Schedule store and fire script tests on a real local 3-master cluster: every key the
 * scripts touch is declared and carries the queue's hash tag.
 *
 * @author EchoMQ
 */
class ClusterSchedulesTests extends AbstractSchedulesTests {

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		LocalCluster cluster = TestRedisServer.sharedCluster();
		return new LettuceConnectionFactory(new RedisClusterConfiguration(cluster.seedNodes()));
	}

}
