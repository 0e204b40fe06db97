package io.echomq.chaos;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Assumptions;

/**
 * Cluster failover tests on a local Redis cluster. On CI {@code redis-server} is
 * required; elsewhere a missing one is replaced by the embedded Redis, never by Valkey.
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
				return ServerBinary.embedded()
					.map((binary) -> LocalCluster.start(binary, 3, 1))
					.orElseGet(() -> Assumptions.abort("No redis-server on PATH and no embedded Redis"));
			});
	}

}
