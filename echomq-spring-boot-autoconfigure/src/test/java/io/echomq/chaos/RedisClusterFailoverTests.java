package io.echomq.chaos;

import io.echomq.test.TestRedisServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;

/**
 * Cluster failover tests on a local Redis cluster. On CI {@code redis-server} is
 * required; elsewhere a missing one falls back to the cluster
 * {@link TestRedisServer#cluster(int, int)} starts.
 *
 * @author EchoMQ
 */
class RedisClusterFailoverTests extends AbstractClusterFailoverTests {

	@Override
	protected LocalCluster startCluster() {
		return ServerBinary.onPath(ServerFlavor.REDIS)
			.map((binary) -> LocalCluster.start(binary, 3, 1))
			.orElseGet(() -> {
				if ("true".equalsIgnoreCase(System.getenv("CI"))) {
					throw new IllegalStateException("CI requires redis-server on PATH for the Redis cluster tests");
				}
				return TestRedisServer.cluster(3, 1);
			});
	}

}
