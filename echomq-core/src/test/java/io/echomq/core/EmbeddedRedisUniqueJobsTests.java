package io.echomq.core;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unique jobs on the Redis 6.2 inside {@code embedded-redis}, the oldest server EchoMQ
 * runs on.
 *
 * @author EchoMQ
 */
class EmbeddedRedisUniqueJobsTests extends AbstractUniqueJobsTests {

	private static TestServer server;

	@BeforeAll
	static void startServer() {
		server = TestRedisServer.startEmbedded(ServerOptions.defaults());
		assertThat(server.version()).startsWith("6.2.");
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Override
	protected LettuceConnectionFactory createConnectionFactory() {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
	}

	@Override
	protected String[] connectionArguments() {
		return new String[] { "standalone", server.host() + ":" + server.port() };
	}

}
