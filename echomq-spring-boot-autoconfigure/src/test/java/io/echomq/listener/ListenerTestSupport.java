package io.echomq.listener;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.echomq.EchoMqTemplate;
import io.echomq.autoconfigure.EchoMqAutoConfiguration;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Shared set-up of the listener integration tests: a real server, a context runner with a
 * key prefix of the test's own, and a probe that reads what the engine wrote.
 *
 * @author EchoMQ
 */
public final class ListenerTestSupport {

	private ListenerTestSupport() {
	}

	/**
	 * Return the server shared by the tests of this JVM (Valkey when installed).
	 * @return the server
	 */
	public static TestServer sharedServer() {
		return TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
	}

	/**
	 * Return a key prefix no other test uses.
	 * @return the prefix
	 */
	public static String uniquePrefix() {
		return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
	}

	/**
	 * Enqueue a job with payload {@code x} and a budget of one attempt through the
	 * context's template.
	 * @param context the application context
	 * @param queue the queue
	 * @return the job's id
	 */
	public static JobId enqueueWithOneAttempt(ApplicationContext context, String queue) {
		return context.getBean(EchoMqTemplate.class).enqueue(queue, "x", EnqueueOptions.defaults().withMaxAttempts(1));
	}

	/**
	 * Return a runner on Redis, Jackson and EchoMQ auto-configuration.
	 * @param server the server
	 * @param prefix the key prefix
	 * @return the runner
	 */
	public static ApplicationContextRunner runner(TestServer server, String prefix) {
		return runner(List.of("spring.data.redis.host=" + server.host(), "spring.data.redis.port=" + server.port()),
				prefix);
	}

	/**
	 * Return a runner on Redis, Jackson and EchoMQ auto-configuration.
	 * @param connection the {@code spring.data.redis.*} properties of the server or
	 * cluster, as {@code name=value}
	 * @param prefix the key prefix
	 * @return the runner
	 */
	public static ApplicationContextRunner runner(List<String> connection, String prefix) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, JacksonAutoConfiguration.class,
					EchoMqAutoConfiguration.class))
			.withPropertyValues(connection.toArray(String[]::new))
			.withPropertyValues("echomq.key-prefix=" + prefix, "echomq.shutdown.timeout=2s");
	}

	/**
	 * Reads keys directly, on a connection factory of its own.
	 */
	public static final class Probe implements AutoCloseable {

		private final LettuceConnectionFactory factory;

		private final StringRedisTemplate template;

		private final Keyspace keyspace;

		public Probe(TestServer server, String prefix) {
			this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
			this.factory.afterPropertiesSet();
			this.template = new StringRedisTemplate(this.factory);
			this.keyspace = new Keyspace(prefix);
		}

		public Map<String, String> row(String queue, JobId id) {
			return this.template.<String, String>opsForHash().entries(this.keyspace.jobKey(queue, id));
		}

		public Set<String> members(String queue, KeyType type) {
			Set<String> members = this.template.opsForZSet().range(this.keyspace.queueKey(queue, type.suffix()), 0, -1);
			return (members != null) ? members : Set.of();
		}

		public @Nullable Double score(String queue, KeyType type, JobId id) {
			return this.template.opsForZSet().score(this.keyspace.queueKey(queue, type.suffix()), id.toString());
		}

		public Map<String, String> metrics(String queue) {
			return this.template.<String, String>opsForHash()
				.entries(this.keyspace.queueKey(queue, KeyType.METRICS.suffix()));
		}

		public StringRedisTemplate template() {
			return this.template;
		}

		@Override
		public void close() {
			this.factory.destroy();
		}

	}

}
