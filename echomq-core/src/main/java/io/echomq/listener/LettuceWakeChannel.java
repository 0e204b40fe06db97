package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
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

	private final LettuceConnectionFactory factory;

	private final WakeConnection connection;

	private volatile @Nullable RedisFuture<?> current;

	/** Set once: a channel serves one run of one poller. */
	private volatile boolean aborted;

	LettuceWakeChannel(LettuceConnectionFactory factory, String key) {
		super(key);
		this.factory = factory;
		this.connection = new WakeConnection(factory);
	}

	@Override
	boolean await(Duration timeout) {
		if (this.aborted) {
			return false;
		}
		Duration block = WakeConnection.blockFor(this.factory, timeout);
		RedisFuture<KeyValue<byte[], byte[]>> reply = this.connection.blpop(block, this.key);
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
		this.connection.close();
	}

}
