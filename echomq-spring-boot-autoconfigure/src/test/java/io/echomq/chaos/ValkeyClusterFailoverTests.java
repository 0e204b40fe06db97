package io.echomq.chaos;

import io.echomq.server.LocalCluster;
import io.echomq.test.TestRedisServer;

/**
 * Cluster failover tests on a local Valkey cluster (Valkey is required on CI).
 *
 * @author EchoMQ
 */
class ValkeyClusterFailoverTests extends AbstractClusterFailoverTests {

	@Override
	protected LocalCluster startCluster() {
		return TestRedisServer.cluster(3, 1);
	}

}
