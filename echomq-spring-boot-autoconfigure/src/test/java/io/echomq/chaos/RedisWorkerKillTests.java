package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Worker {@code kill -9} tests on a real Redis server.
 *
 * @author EchoMQ
 */
class RedisWorkerKillTests extends AbstractWorkerKillTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.REDIS;
	}

}
