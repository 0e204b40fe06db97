package io.echomq.test;

/**
 * Which step of {@link TestRedisServer}'s resolution chain supplied a server.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public enum ServerSource {

	/** An address given by the {@code ECHOMQ_TEST_REDIS_URL} environment variable. */
	ENVIRONMENT,

	/** A {@code valkey/valkey} container started with Testcontainers. */
	TESTCONTAINERS,

	/** A {@code valkey-server} or {@code redis-server} binary on {@code PATH}. */
	PATH,

	/** The Redis binary shipped inside the embedded-redis jar. */
	EMBEDDED

}
