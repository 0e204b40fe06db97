package io.echomq.flow;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

/**
 * {@link AbstractTwoJvmFlowLimitsTests} on Redis 7.
 *
 * @author EchoMQ
 */
class RedisTwoJvmFlowLimitsTests extends AbstractTwoJvmFlowLimitsTests {

	@Override
	protected TestServer server() {
		return TestRedisServer.shared(ServerFlavor.REDIS);
	}

}
