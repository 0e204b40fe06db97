package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Worker {@code kill -9} tests on a real Valkey server.
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeyWorkerKillTests extends AbstractWorkerKillTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.VALKEY;
	}

}
