package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Connection fault tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisConnectionFaultTests extends AbstractConnectionFaultTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.REDIS;
	}

}
