package io.echomq.core;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Node registry and claimant tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisNodesTests extends AbstractNodesTests {

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		TestServer server = TestRedisServer.shared(ServerFlavor.REDIS);
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
	}

}
