package io.echomq.schedule;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;

/**
 * Exactly-once firing of three nodes on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisExactlyOnceScheduleTests extends AbstractExactlyOnceScheduleTests {

	@Override
	protected TestServer server() {
		return TestRedisServer.shared(ServerFlavor.REDIS);
	}

}
