package io.echomq.listener;

import java.time.Duration;

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
 * A native Lettuce connection of its own for {@code BLPOP} on wake lists, opened on first
 * use and again after it was closed or found closed: what {@link LettuceWakeChannel} and
 * each wait of a {@link PartitionWakeChannel} block on.
 *
 * @author EchoMQ
 */
final class WakeConnection {

	private static final Duration MIN_BLOCK = Duration.ofMillis(50);

	private final LettuceConnectionFactory factory;

	private volatile @Nullable StatefulConnection<byte[], byte[]> connection;

	private volatile @Nullable RedisListAsyncCommands<byte[], byte[]> commands;

	WakeConnection(LettuceConnectionFactory factory) {
		this.factory = factory;
	}

	/**
	 * Return how long a {@code BLPOP} may block for a wait of {@code timeout}: under half
	 * the client's command timeout, which Lettuce applies to blocking commands too, and
	 * at least 50 ms.
	 * @param factory the connection factory
	 * @param timeout the wait asked for
	 * @return the block time
	 */
	static Duration blockFor(LettuceConnectionFactory factory, Duration timeout) {
		Duration block = timeout;
		Duration commandTimeout = factory.getClientConfiguration().getCommandTimeout();
		if (commandTimeout != null && commandTimeout.compareTo(block) <= 0) {
			// Lettuce applies its command timeout to blocking commands too
			block = commandTimeout.dividedBy(2);
		}
		return (block.compareTo(MIN_BLOCK) < 0) ? MIN_BLOCK : block;
	}

	/**
	 * Send a {@code BLPOP} of {@code keys} on this connection, opening it if needed.
	 * @param block the server-side timeout (whole seconds are sent as an integer)
	 * @param keys the wake lists
	 * @return the reply
	 */
	RedisFuture<KeyValue<byte[], byte[]>> blpop(Duration block, byte[]... keys) {
		RedisListAsyncCommands<byte[], byte[]> open = open();
		return (block.toMillis() % 1000 == 0) ? open.blpop(block.toSeconds(), keys)
				: open.blpop(block.toMillis() / 1000.0, keys);
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

	/**
	 * Close the connection, if open; the next {@link #blpop} opens another.
	 */
	void close() {
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
