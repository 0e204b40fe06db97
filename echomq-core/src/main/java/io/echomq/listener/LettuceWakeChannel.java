package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisListAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link WakeChannel} on a native Lettuce connection of its own.
 *
 * @author EchoMQ
 */
final class LettuceWakeChannel extends WakeChannel {

	/**
	 * How long past the server-side timeout the reply may take before it counts as lost.
	 */
	static final Duration REPLY_GUARD = Duration.ofSeconds(1);

	private static final Duration MIN_BLOCK = Duration.ofMillis(50);

	private final LettuceConnectionFactory factory;

	private volatile @Nullable StatefulConnection<byte[], byte[]> connection;

	private volatile @Nullable RedisListAsyncCommands<byte[], byte[]> commands;

	private volatile @Nullable RedisFuture<?> current;

	/** Set once: a channel serves one run of one poller. */
	private volatile boolean aborted;

	LettuceWakeChannel(LettuceConnectionFactory factory, String key) {
		super(key);
		this.factory = factory;
	}

	@Override
	boolean await(Duration timeout) {
		if (this.aborted) {
			return false;
		}
		RedisListAsyncCommands<byte[], byte[]> open = open();
		Duration block = blockFor(timeout);
		RedisFuture<KeyValue<byte[], byte[]>> reply = (block.toMillis() % 1000 == 0)
				? open.blpop(block.toSeconds(), this.key) : open.blpop(block.toMillis() / 1000.0, this.key);
		this.current = reply;
		if (this.aborted) {
			reply.cancel(true);
		}
		try {
			KeyValue<byte[], byte[]> popped = reply.get(block.plus(REPLY_GUARD).toMillis(), TimeUnit.MILLISECONDS);
			return popped != null && popped.hasValue() && popped(popped.getKey(), popped.getValue());
		}
		catch (TimeoutException ex) {
			// the reply was lost: drop the connection, the next wait opens another
			reply.cancel(true);
			close();
			return false;
		}
		catch (CancellationException ex) {
			// aborted: the server may still hold the BLPOP, so the connection is unusable
			close();
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			reply.cancel(true);
			close();
			return false;
		}
		catch (ExecutionException ex) {
			close();
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			throw new RedisConnectionFailureException("BLPOP on wake list failed: " + cause.getMessage(), cause);
		}
		finally {
			this.current = null;
		}
	}

	private Duration blockFor(Duration timeout) {
		Duration block = timeout;
		Duration commandTimeout = this.factory.getClientConfiguration().getCommandTimeout();
		if (commandTimeout != null && commandTimeout.compareTo(block) <= 0) {
			// Lettuce applies its command timeout to blocking commands too
			block = commandTimeout.dividedBy(2);
		}
		return (block.compareTo(MIN_BLOCK) < 0) ? MIN_BLOCK : block;
	}

	private RedisListAsyncCommands<byte[], byte[]> open() {
		RedisListAsyncCommands<byte[], byte[]> open = this.commands;
		StatefulConnection<byte[], byte[]> openConnection = this.connection;
		if (open != null && openConnection != null && openConnection.isOpen()) {
			return open;
		}
		close();
		AbstractRedisClient client = this.factory.getRequiredNativeClient();
		try {
			if (client instanceof RedisClusterClient cluster) {
				StatefulRedisClusterConnection<byte[], byte[]> opened = cluster.connect(ByteArrayCodec.INSTANCE);
				this.connection = opened;
				open = opened.async();
			}
			else if (client instanceof RedisClient standalone) {
				StatefulRedisConnection<byte[], byte[]> opened = standalone.connect(ByteArrayCodec.INSTANCE);
				this.connection = opened;
				if (this.factory.getDatabase() != 0) {
					opened.sync().select(this.factory.getDatabase());
				}
				open = opened.async();
			}
			else {
				throw new IllegalStateException("Unsupported Lettuce client " + client.getClass().getName());
			}
		}
		catch (RuntimeException ex) {
			close();
			throw new RedisConnectionFailureException("Cannot open wake connection: " + ex.getMessage(), ex);
		}
		this.commands = open;
		return open;
	}

	@Override
	void abort() {
		this.aborted = true;
		RedisFuture<?> pending = this.current;
		if (pending != null) {
			pending.cancel(true);
		}
	}

	@Override
	public void close() {
		StatefulConnection<byte[], byte[]> open = this.connection;
		this.connection = null;
		this.commands = null;
		if (open != null) {
			try {
				open.closeAsync();
			}
			catch (RuntimeException ex) {
				// closing a broken connection
			}
		}
	}

}
