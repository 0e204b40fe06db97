package io.echomq.listener;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * The idle wait of one poller: {@code BLPOP} on a queue's wake list, on a connection of
 * its own so that it never blocks the commands of other threads. The connection opens on
 * first use and after {@link #close()}; a failure to open it is thrown to the poller.
 * <p>
 * On Lettuce the connection is a native one opened through the factory's client, and the
 * reply is awaited with a client-side guard, so a lost reply cannot hang the poller.
 * Other drivers use a {@link RedisConnection} of the factory (whole seconds).
 * <p>
 * A popped schedule token (pushed by a delayed job that comes before every other
 * scheduled job of its queue) goes to the {@linkplain #onScheduleToken(Consumer) schedule
 * listener} with the wake list it came from, and counts as a wake-up too.
 *
 * @author EchoMQ
 */
abstract class WakeChannel implements AutoCloseable {

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient",
			WakeChannel.class.getClassLoader());

	/** The token that {@code wake.lua}'s {@code wake_due} pushes. */
	private static final byte[] SCHEDULE_TOKEN = { 'd' };

	protected final byte[] key;

	private volatile Consumer<String> scheduleListener = (wakeKey) -> {
	};

	protected WakeChannel(String key) {
		this.key = key.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Set what is told, with the wake list's key, when a schedule token is popped.
	 * @param listener the listener
	 */
	void onScheduleToken(Consumer<String> listener) {
		this.scheduleListener = listener;
	}

	/**
	 * Handle what a {@code BLPOP} popped.
	 * @param poppedKey the list it came from
	 * @param value the token, {@code null} on timeout
	 * @return whether a token was popped
	 */
	protected final boolean popped(byte[] poppedKey, byte @Nullable [] value) {
		if (value == null) {
			return false;
		}
		if (Arrays.equals(value, SCHEDULE_TOKEN)) {
			this.scheduleListener.accept(new String(poppedKey, StandardCharsets.UTF_8));
		}
		return true;
	}

	static WakeChannel create(RedisConnectionFactory factory, String key) {
		if (LETTUCE_PRESENT && factory instanceof LettuceConnectionFactory lettuce) {
			return new LettuceWakeChannel(lettuce, key);
		}
		return new ConnectionWakeChannel(factory, key);
	}

	/**
	 * Create the wait over the wake lists of several partitions.
	 * @param factory the connection factory
	 * @param keys the wake list of each partition
	 * @return the channel: the single-list one for one key
	 */
	static WakeChannel create(RedisConnectionFactory factory, List<String> keys) {
		if (keys.size() == 1) {
			return create(factory, keys.get(0));
		}
		if (LETTUCE_PRESENT && factory instanceof LettuceConnectionFactory lettuce) {
			return new PartitionWakeChannel(lettuce, keys);
		}
		throw new IllegalStateException("A queue with " + keys.size()
				+ " partitions needs the Lettuce driver to wait on the wake lists of its partitions");
	}

	/**
	 * Block until a wake-up token is popped or the timeout passes.
	 * @param timeout the server-side timeout
	 * @return {@code true} if woken by a token, {@code false} on timeout or abort
	 */
	abstract boolean await(Duration timeout);

	/**
	 * Make a blocked {@link #await(Duration)} return soon, from another thread.
	 */
	abstract void abort();

	/**
	 * Close the connection; the next {@link #await(Duration)} opens a new one.
	 */
	@Override
	public abstract void close();

	/**
	 * The generic variant, on a connection of the factory.
	 */
	private static final class ConnectionWakeChannel extends WakeChannel {

		private final RedisConnectionFactory factory;

		private volatile @Nullable RedisConnection connection;

		ConnectionWakeChannel(RedisConnectionFactory factory, String key) {
			super(key);
			this.factory = factory;
		}

		@Override
		boolean await(Duration timeout) {
			RedisConnection current = this.connection;
			if (current == null || current.isClosed()) {
				current = this.factory.getConnection();
				this.connection = current;
			}
			int seconds = (int) Math.max(1, Math.min(Integer.MAX_VALUE, (timeout.toMillis() + 999) / 1000));
			List<byte[]> popped = current.listCommands().bLPop(seconds, this.key);
			return popped != null && popped.size() == 2 && popped(popped.get(0), popped.get(1));
		}

		@Override
		void abort() {
			// a blocked BLPOP returns on its own within the idle wait
		}

		@Override
		public void close() {
			RedisConnection current = this.connection;
			this.connection = null;
			if (current != null) {
				try {
					current.close();
				}
				catch (RuntimeException ex) {
					// closing a broken connection
				}
			}
		}

	}

}
