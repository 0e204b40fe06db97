package io.echomq.core;

import io.echomq.core.internal.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The engine set-up of the tests that drive {@link Engine} against a real server: before
 * each test a connection, an engine and a new queue name; after it, that connection and
 * those of the extra engines the test asked for are closed. Engine test classes get it
 * through {@link EngineTestSupport}, which builds it on the class's {@link EngineServer}
 * parameter.
 *
 * @author EchoMQ
 */
public final class EngineExtension implements BeforeEachCallback, AfterEachCallback {

	private final Supplier<EngineServer> server;

	private final String queuePrefix;

	private final Keyspace keyspace = Keyspace.defaults();

	private final List<LettuceConnectionFactory> others = new ArrayList<>();

	private EngineServer.@Nullable Target target;

	private @Nullable LettuceConnectionFactory connectionFactory;

	private @Nullable StringRedisTemplate redis;

	private @Nullable Engine jobs;

	private @Nullable String queue;

	/**
	 * Create an extension for the given server.
	 * @param server the server, read before each test (a parameterised class injects it
	 * after creating the test instance)
	 * @param queuePrefix the start of each test's queue name
	 */
	public EngineExtension(Supplier<EngineServer> server, String queuePrefix) {
		this.server = server;
		this.queuePrefix = queuePrefix;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.target = this.server.get().target(context);
		LettuceConnectionFactory factory = connect(this.target);
		this.connectionFactory = factory;
		this.redis = new StringRedisTemplate(factory);
		this.jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), this.keyspace);
		this.queue = this.queuePrefix + UUID.randomUUID().toString().substring(0, 8);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.others.forEach(LettuceConnectionFactory::destroy);
		this.others.clear();
		LettuceConnectionFactory factory = this.connectionFactory;
		this.connectionFactory = null;
		if (factory != null) {
			factory.destroy();
		}
	}

	/**
	 * Return the server this extension connects to.
	 * @return the server
	 */
	public EngineServer server() {
		return this.server.get();
	}

	/**
	 * Return the connection of the current test.
	 * @return the connection factory, started
	 */
	public LettuceConnectionFactory connectionFactory() {
		return required(this.connectionFactory);
	}

	/**
	 * Return a template on the connection of the current test.
	 * @return the template
	 */
	public StringRedisTemplate redis() {
		return required(this.redis);
	}

	/**
	 * Return the engine of the current test.
	 * @return the engine, on its own template over the connection of the current test
	 */
	public Engine jobs() {
		return required(this.jobs);
	}

	/**
	 * Return the default keyspace, the one every engine of this extension uses.
	 * @return the keyspace
	 */
	public Keyspace keyspace() {
		return this.keyspace;
	}

	/**
	 * Return the queue name of the current test, new for each test.
	 * @return the queue name
	 */
	public String queue() {
		return required(this.queue);
	}

	/**
	 * Return how a child JVM reaches the same server.
	 * @return {@code standalone host:port} or {@code cluster host:port,...}
	 */
	public String[] connectionArguments() {
		return required(this.target).arguments().clone();
	}

	/**
	 * Create another engine on its own connection to the same server, as another node
	 * would have; its connection is closed after the current test.
	 * @return the engine
	 */
	public Engine newEngine() {
		LettuceConnectionFactory factory = connect(required(this.target));
		this.others.add(factory);
		return new Engine(new ScriptExecutor(new StringRedisTemplate(factory)), this.keyspace);
	}

	private static LettuceConnectionFactory connect(EngineServer.Target target) {
		LettuceConnectionFactory factory = (target.configuration() instanceof RedisClusterConfiguration cluster)
				? new LettuceConnectionFactory(cluster)
				: new LettuceConnectionFactory((RedisStandaloneConfiguration) target.configuration());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static <T> T required(@Nullable T value) {
		if (value == null) {
			throw new IllegalStateException("Not connected: use the engine inside a test (after beforeEach)");
		}
		return value;
	}

}
