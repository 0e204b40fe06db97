package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Connection fault tests on a real Valkey server.
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeyConnectionFaultTests extends AbstractConnectionFaultTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.VALKEY;
	}

}
