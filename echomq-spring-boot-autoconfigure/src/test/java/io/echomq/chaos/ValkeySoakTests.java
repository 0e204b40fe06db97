package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Soak tests on a real Valkey server.
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeySoakTests extends AbstractSoakTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.VALKEY;
	}

}
