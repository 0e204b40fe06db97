package io.echomq.core;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Unique jobs on Redis.
 *
 * @author EchoMQ
 */
class RedisUniqueJobsTests extends AbstractUniqueJobsTests {

	private final TestServer server = TestRedisServer.shared(ServerFlavor.REDIS);

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
	}

	@Override
	protected String[] connectionArguments() {
		return new String[] { "standalone", this.server.host() + ":" + this.server.port() };
	}

}
