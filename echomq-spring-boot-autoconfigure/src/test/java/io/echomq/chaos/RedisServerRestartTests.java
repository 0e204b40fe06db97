package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Server kill and restart tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisServerRestartTests extends AbstractServerRestartTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.REDIS;
	}

}
