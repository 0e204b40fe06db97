package io.echomq;

import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.support.JacksonPayloadConverter;
import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The set-up of the tests that drive an {@link EchoMqTemplate} without an application
 * context: before each test a started connection to a shared server or cluster, an engine
 * on it and a new queue name; after it, the connection is destroyed. Register it on an
 * instance field with {@code @RegisterExtension}.
 *
 * @author EchoMQ
 */
public final class EngineConnection implements BeforeEachCallback, AfterEachCallback {

	private final Supplier<LettuceConnectionFactory> connect;

	private final String queuePrefix;

	private LettuceConnectionFactory connectionFactory;

	private StringRedisTemplate redis;

	private Engine jobs;

	private String queue;

	private EngineConnection(Supplier<LettuceConnectionFactory> connect, String queuePrefix) {
		this.connect = connect;
		this.queuePrefix = queuePrefix;
	}

	/**
	 * Connect each test to the shared server, Valkey where there is one.
	 * @param queuePrefix the start of each test's queue name
	 * @return the extension
	 */
	public static EngineConnection toSharedServer(String queuePrefix) {
		return new EngineConnection(() -> {
			TestServer server = TestRedisServer.sharedPreferring(ServerFlavor.VALKEY);
			return new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()));
		}, queuePrefix);
	}

	/**
	 * Connect each test to the shared local cluster.
	 * @param queuePrefix the start of each test's queue name
	 * @return the extension
	 */
	public static EngineConnection toSharedCluster(String queuePrefix) {
		return new EngineConnection(() -> new LettuceConnectionFactory(
				new RedisClusterConfiguration(TestRedisServer.sharedCluster().seedNodes())), queuePrefix);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		LettuceConnectionFactory factory = this.connect.get();
		factory.afterPropertiesSet();
		factory.start();
		this.connectionFactory = factory;
		this.redis = new StringRedisTemplate(factory);
		this.jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), Keyspace.defaults());
		this.queue = this.queuePrefix + UUID.randomUUID().toString().substring(0, 8);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (this.connectionFactory != null) {
			this.connectionFactory.destroy();
		}
	}

	/**
	 * Return a template on the test's connection.
	 * @return the template
	 */
	public StringRedisTemplate redis() {
		return this.redis;
	}

	/**
	 * Create a template on the test's engine with a JSON payload converter.
	 * @param maxPayloadBytes the largest serialized payload accepted
	 * @param maxAttempts the attempt budget of every queue
	 * @param interceptors the enqueue interceptors
	 * @return the template
	 */
	public EchoMqTemplate template(long maxPayloadBytes, int maxAttempts, List<EnqueueInterceptor> interceptors) {
		return new EchoMqTemplate(this.jobs, new JacksonPayloadConverter(JsonMapper.builder().build()), maxPayloadBytes,
				(queue) -> maxAttempts, interceptors);
	}

	/**
	 * Return the test's engine, with the default keyspace.
	 * @return the engine
	 */
	public Engine jobs() {
		return this.jobs;
	}

	/**
	 * Return the test's queue name.
	 * @return a queue name no other test uses
	 */
	public String queue() {
		return this.queue;
	}

}
