package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Full server tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisFullServerTests extends AbstractFullServerTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.REDIS;
	}

}
