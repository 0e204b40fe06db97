package io.echomq.chaos;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerFlavor;

/**
 * Cluster failover tests on a local Valkey cluster (Valkey is required on CI).
 *
 * @author EchoMQ
 */
@RequiresServerBinary(ServerFlavor.VALKEY)
class ValkeyClusterFailoverTests extends AbstractClusterFailoverTests {

	@Override
	protected LocalCluster startCluster() {
		return TestRedisServer.cluster(3, 1);
	}

}
