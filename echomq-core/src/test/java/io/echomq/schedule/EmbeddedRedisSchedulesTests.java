package io.echomq.schedule;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedule store and fire script tests on the oldest supported server, Redis 6.2: the
 * binary inside the embedded-redis jar, which every build has, so this runs whatever is
 * installed.
 *
 * @author EchoMQ
 */
class EmbeddedRedisSchedulesTests extends AbstractSchedulesTests {

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

}
