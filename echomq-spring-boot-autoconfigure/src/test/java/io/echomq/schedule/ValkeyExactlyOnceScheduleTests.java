package io.echomq.schedule;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

/**
 * Exactly-once firing of three nodes on a real Valkey server.
 *
 * @author EchoMQ
 */
class ValkeyExactlyOnceScheduleTests extends AbstractExactlyOnceScheduleTests {

	@Override
	protected TestServer server() {
		return TestRedisServer.shared(ServerFlavor.VALKEY);
	}

}
