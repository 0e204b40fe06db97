package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Soak tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisSoakTests extends AbstractSoakTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.REDIS;
	}

}
