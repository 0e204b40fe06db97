package io.echomq.core;

import java.util.Arrays;
import java.util.Optional;

import io.echomq.test.ServerSource;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.platform.commons.support.AnnotationSupport;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servers the tests run on, one parameterised class (or method) invocation each
 * (reports read {@code ... on VALKEY}): the one list of test servers of echomq-core and
 * of the auto-configuration's tests, which get it through echomq-core's test jar.
 * Standalone servers and the cluster are shared by the whole JVM; the embedded Redis is
 * started on first use and stopped when the test run ends. A test that changes a server's
 * configuration starts its own ({@link #start(ServerOptions)}).
 *
 * @author EchoMQ
 * @see EngineExtension
 */
public enum EngineServer {

	/** A Valkey server from {@code PATH}. */
	VALKEY {

		@Override
		public Target target(ExtensionContext context) {
			return standalone(TestRedisServer.shared(ServerFlavor.VALKEY));
		}

	},

	/**
	 * A Redis server from {@code PATH}, else the embedded Redis: then a class that runs
	 * on {@link #EMBEDDED_REDIS} too skips this run with the reason, as it would repeat
	 * that one on the same binary.
	 */
	REDIS {

		@Override
		public Target target(ExtensionContext context) {
			TestServer server = TestRedisServer.shared(ServerFlavor.REDIS);
			if (server.source() == ServerSource.EMBEDDED && runsOn(context, EMBEDDED_REDIS)) {
				Assumptions.abort("No redis-server on PATH: REDIS would be the embedded Redis " + server.version()
						+ ", which the EMBEDDED_REDIS run of this class covers");
			}
			return standalone(server);
		}

	},

	/**
	 * A local 3-master cluster: every transition must run unchanged because every key of
	 * a queue is declared and hashes to one slot.
	 */
	CLUSTER {

		@Override
		public Target target(ExtensionContext context) {
			return cluster(TestRedisServer.sharedCluster());
		}

	},

	/**
	 * Redis 6.2, the oldest server EchoMQ runs on: the binary inside the embedded-redis
	 * jar, which every build has, so this runs whatever is installed.
	 */
	EMBEDDED_REDIS {

		@Override
		public Target target(ExtensionContext context) {
			TestServer server = context.getRoot()
				.getStore(NAMESPACE)
				.computeIfAbsent(EMBEDDED_REDIS, (key) -> startEmbedded(ServerOptions.defaults()), TestServer.class);
			return standalone(server);
		}

	};

	private static final Namespace NAMESPACE = Namespace.create(EngineServer.class);

	/**
	 * Resolve the server, starting it if this is its first use.
	 * @param context the context of the test about to run
	 * @return how to reach it
	 */
	public abstract Target target(ExtensionContext context);

	/**
	 * Resolve the server outside a test's context (in a class-level set-up): the servers
	 * this JVM shares. {@link #EMBEDDED_REDIS} is started for a test run, so it needs the
	 * test's context.
	 * @return how to reach it
	 * @throws IllegalStateException for {@link #EMBEDDED_REDIS}
	 */
	public Target target() {
		return switch (this) {
			case VALKEY -> standalone(TestRedisServer.shared(ServerFlavor.VALKEY));
			case REDIS -> standalone(TestRedisServer.shared(ServerFlavor.REDIS));
			case CLUSTER -> cluster(TestRedisServer.sharedCluster());
			case EMBEDDED_REDIS -> throw new IllegalStateException(
					"EMBEDDED_REDIS is started for a test run: use target(ExtensionContext)");
		};
	}

	/**
	 * Return why the server cannot be supplied here, if it cannot: outside CI, Valkey
	 * without {@code valkey-server} on {@code PATH}. On CI a missing binary fails
	 * instead.
	 * @return the reason, or empty
	 */
	public Optional<String> unavailability() {
		return switch (this) {
			case VALKEY, REDIS -> TestRedisServer.unavailability(ServerFlavor.valueOf(name()));
			case CLUSTER, EMBEDDED_REDIS -> Optional.empty();
		};
	}

	/**
	 * Start a server of this kind that the caller owns, with the given options, for a
	 * test that changes the server's configuration. Outside CI, Valkey or Redis without
	 * its binary on {@code PATH} skips the test (the embedded Redis is
	 * {@link #EMBEDDED_REDIS}'s, not a stand-in here).
	 * @param options e.g. a {@code maxmemory}
	 * @return the server, to be closed by the caller
	 * @throws UnsupportedOperationException for {@link #CLUSTER}
	 */
	public TestServer start(ServerOptions options) {
		return switch (this) {
			case VALKEY -> TestRedisServer.startOwned(ServerFlavor.VALKEY, options);
			case REDIS -> {
				TestServer server = TestRedisServer.startOwned(ServerFlavor.REDIS, options);
				if (server.source() == ServerSource.EMBEDDED) {
					server.close();
					Assumptions.abort("No redis-server on PATH (CI requires it): the embedded Redis " + server.version()
							+ " is EMBEDDED_REDIS's run");
				}
				yield server;
			}
			case EMBEDDED_REDIS -> startEmbedded(options);
			case CLUSTER -> throw new UnsupportedOperationException("A cluster is shared, not started with options");
		};
	}

	private static TestServer startEmbedded(ServerOptions options) {
		TestServer server = TestRedisServer.startEmbedded(options);
		assertThat(server.version()).startsWith("6.2.");
		return server;
	}

	private static boolean runsOn(ExtensionContext context, EngineServer server) {
		return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), EnumSource.class)
			.map((source) -> source.mode() == EnumSource.Mode.INCLUDE
					&& (source.names().length == 0 || Arrays.asList(source.names()).contains(server.name())))
			.orElse(false);
	}

	private static Target cluster(LocalCluster cluster) {
		return new Target(new RedisClusterConfiguration(cluster.seedNodes()),
				new String[] { "cluster", String.join(",", cluster.seedNodes()) });
	}

	private static Target standalone(TestServer server) {
		return new Target(new RedisStandaloneConfiguration(server.host(), server.port()),
				new String[] { "standalone", server.host() + ":" + server.port() });
	}

	/**
	 * How to reach a server.
	 *
	 * @param configuration the Lettuce configuration
	 * @param arguments how a child JVM reaches the same server:
	 * {@code standalone host:port} or {@code cluster host:port,...}
	 */
	public record Target(RedisConfiguration configuration, String[] arguments) {

		/**
		 * Connect to the server.
		 * @return a started connection factory, to be destroyed by the caller
		 */
		public LettuceConnectionFactory connect() {
			return connect(this.arguments);
		}

		/**
		 * Connect to a server the way a child JVM given {@link #arguments()} does.
		 * @param arguments {@code standalone host:port} or {@code cluster host:port,...}
		 * first
		 * @return a started connection factory
		 */
		public static LettuceConnectionFactory connect(String[] arguments) {
			LettuceConnectionFactory factory = ("cluster".equals(arguments[0]))
					? new LettuceConnectionFactory(
							new RedisClusterConfiguration(Arrays.asList(arguments[1].split(","))))
					: new LettuceConnectionFactory(new RedisStandaloneConfiguration(arguments[1].split(":")[0],
							Integer.parseInt(arguments[1].split(":")[1])));
			factory.afterPropertiesSet();
			factory.start();
			return factory;
		}

	}

}
