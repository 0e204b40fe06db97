package io.echomq.chaos;

import io.echomq.test.server.ServerFlavor;

/**
 * Server kill and restart tests on a real Valkey server.
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeyServerRestartTests extends AbstractServerRestartTests {

	@Override
	protected ServerFlavor flavor() {
		return ServerFlavor.VALKEY;
	}

}
