package io.echomq.flow;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

/**
 * {@link AbstractTwoJvmFlowLimitsTests} on Valkey 8.
 *
 * @author EchoMQ
 */
class ValkeyTwoJvmFlowLimitsTests extends AbstractTwoJvmFlowLimitsTests {

	@Override
	protected TestServer server() {
		return TestRedisServer.shared(ServerFlavor.VALKEY);
	}

}
