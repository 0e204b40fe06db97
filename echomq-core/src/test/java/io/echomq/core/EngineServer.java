package io.echomq.core;

import java.util.Arrays;

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
 * The servers an engine test runs on, one parameterised class invocation each (reports
 * read {@code ... on VALKEY}). Standalone servers and the cluster are shared by the whole
 * JVM; the embedded Redis is started on first use and stopped when the test run ends.
 *
 * @author EchoMQ
 * @see EngineExtension
 */
public enum EngineServer {

	/** A Valkey server from {@code PATH}. */
	VALKEY {

		@Override
		Target target(ExtensionContext context) {
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
		Target target(ExtensionContext context) {
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
		Target target(ExtensionContext context) {
			LocalCluster cluster = TestRedisServer.sharedCluster();
			return new Target(new RedisClusterConfiguration(cluster.seedNodes()),
					new String[] { "cluster", String.join(",", cluster.seedNodes()) });
		}

	},

	/**
	 * Redis 6.2, the oldest server EchoMQ runs on: the binary inside the embedded-redis
	 * jar, which every build has, so this runs whatever is installed.
	 */
	EMBEDDED_REDIS {

		@Override
		Target target(ExtensionContext context) {
			TestServer server = context.getRoot()
				.getStore(NAMESPACE)
				.computeIfAbsent(EMBEDDED_REDIS, (key) -> startEmbedded(), TestServer.class);
			return standalone(server);
		}

		private TestServer startEmbedded() {
			TestServer server = TestRedisServer.startEmbedded(ServerOptions.defaults());
			assertThat(server.version()).startsWith("6.2.");
			return server;
		}

	};

	private static final Namespace NAMESPACE = Namespace.create(EngineServer.class);

	/**
	 * Resolve the server, starting it if this is its first use.
	 * @param context the context of the test about to run
	 * @return how to reach it
	 */
	abstract Target target(ExtensionContext context);

	private static boolean runsOn(ExtensionContext context, EngineServer server) {
		return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), EnumSource.class)
			.map((source) -> source.mode() == EnumSource.Mode.INCLUDE
					&& (source.names().length == 0 || Arrays.asList(source.names()).contains(server.name())))
			.orElse(false);
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
	record Target(RedisConfiguration configuration, String[] arguments) {

		/**
		 * Connect to a server the way a child JVM given {@link #arguments()} does.
		 * @param arguments {@code standalone host:port} or {@code cluster host:port,...}
		 * first
		 * @return a started connection factory
		 */
		static LettuceConnectionFactory connect(String[] arguments) {
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
