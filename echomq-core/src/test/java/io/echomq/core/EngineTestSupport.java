package io.echomq.core;

import java.time.Duration;
import java.util.Locale;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Engine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What an engine test class extends: a {@code @ParameterizedClass} (reported as
 * {@code ... on VALKEY}) whose subclass names the servers with an {@code @EnumSource} of
 * {@link EngineServer}, the {@link EngineExtension} for the server of the current
 * invocation, and the current test's connection, template, engine, keyspace and queue
 * name (the class's simple name, then a random part) as fields:
 *
 * <pre class="code">
 * &#64;EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
 * class CancelTests extends EngineTestSupport {
 * </pre>
 *
 * @author EchoMQ
 */
@ParameterizedClass(name = "on {0}")
public abstract class EngineTestSupport {

	/** The lease of the jobs the tests claim. */
	protected static final Duration LEASE = Duration.ofSeconds(30);

	@Parameter
	protected EngineServer server;

	@RegisterExtension
	protected final EngineExtension engine = new EngineExtension(() -> this.server,
			getClass().getSimpleName().replace("Tests", "").toLowerCase(Locale.ROOT) + "-");

	protected LettuceConnectionFactory connectionFactory;

	protected StringRedisTemplate redis;

	protected Engine jobs;

	protected Keyspace keyspace;

	protected String queue;

	@BeforeEach
	void bindEngine() {
		this.connectionFactory = this.engine.connectionFactory();
		this.redis = this.engine.redis();
		this.keyspace = this.engine.keyspace();
		this.jobs = this.engine.jobs();
		this.queue = this.engine.queue();
	}

	/**
	 * Enqueue a job with payload {@code x} on the test's queue and claim it.
	 * @param lease the lease of the claim
	 * @return the claimed job
	 */
	protected ClaimedJob enqueueAndClaim(Duration lease) {
		this.jobs.enqueues().enqueue(this.queue, "x", EnqueueSpec.defaults());
		return this.jobs.claims().claim(this.queue, lease, 1).get(0);
	}

}
