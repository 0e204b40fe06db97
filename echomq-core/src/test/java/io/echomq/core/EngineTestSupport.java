package io.echomq.core;

import io.echomq.core.internal.Engine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What an engine test class extends: the {@link EngineExtension} for the server the class
 * is invoked with, and the current test's connection, template, engine, keyspace and
 * queue name as fields. A subclass is a {@code @ParameterizedClass} over
 * {@link EngineServer}:
 *
 * <pre class="code">
 * &#64;ParameterizedClass(name = "on {0}")
 * &#64;EnumSource(EngineServer.class)
 * class CancelTests extends EngineTestSupport {
 *
 *     CancelTests(EngineServer server) {
 *         super(server, "c-");
 *     }
 * </pre>
 *
 * @author EchoMQ
 */
public abstract class EngineTestSupport {

	@RegisterExtension
	protected final EngineExtension engine;

	protected LettuceConnectionFactory connectionFactory;

	protected StringRedisTemplate redis;

	protected Engine jobs;

	protected Keyspace keyspace;

	protected String queue;

	/**
	 * Create a test on the given server.
	 * @param server the server
	 * @param queuePrefix the start of each test's queue name
	 */
	protected EngineTestSupport(EngineServer server, String queuePrefix) {
		this.engine = new EngineExtension(server, queuePrefix);
	}

	@BeforeEach
	void bindEngine() {
		this.connectionFactory = this.engine.connectionFactory();
		this.redis = this.engine.redis();
		this.keyspace = this.engine.keyspace();
		this.jobs = this.engine.jobs();
		this.queue = this.engine.queue();
	}

}
