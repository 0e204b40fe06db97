package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Full server tests on a real Valkey server.
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeyFullServerTests extends AbstractFullServerTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.VALKEY;
	}

}
