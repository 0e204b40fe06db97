package io.echomq;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Creates the {@link EchoMqEngine} an application's parts share, where Spring Boot's
 * auto-configuration does not: one per connection factory and keyspace, built once and
 * handed to the template, the admin, the listener container factory and the read
 * services.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public final class EchoMqEngines {

	private EchoMqEngines() {
	}

	/**
	 * Create an engine on a connection factory, in the default keyspace ({@code emq}).
	 * @param connectionFactory the connection factory
	 * @return the engine
	 */
	public static EchoMqEngine create(RedisConnectionFactory connectionFactory) {
		return create(connectionFactory, Keyspace.defaults());
	}

	/**
	 * Create an engine on a connection factory and keyspace.
	 * @param connectionFactory the connection factory
	 * @param keyspace the keyspace
	 * @return the engine
	 */
	public static EchoMqEngine create(RedisConnectionFactory connectionFactory, Keyspace keyspace) {
		Assert.notNull(connectionFactory, "'connectionFactory' must not be null");
		return create(new StringRedisTemplate(connectionFactory), keyspace);
	}

	/**
	 * Create an engine on a template and keyspace.
	 * @param template the template the engine's scripts and reads go through
	 * @param keyspace the keyspace
	 * @return the engine
	 */
	public static EchoMqEngine create(StringRedisTemplate template, Keyspace keyspace) {
		Assert.notNull(template, "'template' must not be null");
		Assert.notNull(keyspace, "'keyspace' must not be null");
		return new Engine(new ScriptExecutor(template), keyspace);
	}

}
