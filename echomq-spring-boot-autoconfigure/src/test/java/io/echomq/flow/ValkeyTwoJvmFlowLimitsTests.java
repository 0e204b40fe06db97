package io.echomq.flow;

import java.util.List;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link AbstractTwoJvmFlowLimitsTests} on Valkey 8.
 *
 * @author EchoMQ
 */
class ValkeyTwoJvmFlowLimitsTests extends AbstractTwoJvmFlowLimitsTests {

	private final TestServer server = TestRedisServer.shared(ServerFlavor.VALKEY);

	@Override
	protected List<String> connection() {
		return List.of("spring.data.redis.host=" + this.server.host(), "spring.data.redis.port=" + this.server.port());
	}

	@Override
	protected LettuceConnectionFactory probeConnection() {
		return new LettuceConnectionFactory(new RedisStandaloneConfiguration(this.server.host(), this.server.port()));
	}

}
