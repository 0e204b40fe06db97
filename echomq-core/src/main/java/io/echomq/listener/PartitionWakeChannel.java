package io.echomq.listener;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.RedisClusterClient;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The idle wait of a poller over the wake lists of every partition of a queue.
 * <p>
 * On a single server all partitions live on one server, so one {@code BLPOP} names every
 * wake list: one connection whatever the partition count. On a cluster a {@code BLPOP}
 * may only name keys of one slot, so each partition has a wait of its own on a connection
 * of its own: a container of a queue with 16 partitions holds 16 wake connections (each
 * an idle blocked client on the master of its partition). The waits stay armed across
 * calls: a {@code BLPOP} still blocked when the poller finds work is left in place and
 * reused, so waking costs no new command per partition.
 * <p>
 * A wait that fails (its master is down) is closed and armed again on the next call; the
 * call fails only when every wait failed.
 *
 * @author EchoMQ
 */
final class PartitionWakeChannel extends WakeChannel {

	private final LettuceConnectionFactory factory;

	private final List<String> keys;

	private volatile @Nullable List<Wait> waits;

	private volatile boolean aborted;

	PartitionWakeChannel(LettuceConnectionFactory factory, List<String> keys) {
		super(keys.get(0));
		this.factory = factory;
		this.keys = List.copyOf(keys);
	}

	/**
	 * Return how many connections the waits hold (or will hold once armed).
	 * @return the connection count
	 */
	int connectionCount() {
		return waits().size();
	}

	@Override
	boolean await(Duration timeout) {
		if (this.aborted) {
			return false;
		}
		List<Wait> all = waits();
		Duration block = WakeConnection.blockFor(this.factory, timeout);
		RuntimeException failure = null;
		List<CompletableFuture<?>> armed = new ArrayList<>(all.size());
		for (Wait wait : all) {
			try {
				armed.add(wait.arm(block));
			}
			catch (RuntimeException ex) {
				failure = (failure != null) ? failure : ex;
			}
		}
		if (armed.isEmpty()) {
			throw (failure != null) ? failure : new IllegalStateException("No wake list to wait on");
		}
		try {
			CompletableFuture.anyOf(armed.toArray(CompletableFuture[]::new))
				.get(block.plus(LettuceWakeChannel.REPLY_GUARD).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// a lost reply or a failed wait: collected below
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			close();
			return false;
		}
		catch (java.util.concurrent.CancellationException ex) {
			close();
			return false;
		}
		boolean woken = false;
		for (Wait wait : all) {
			woken |= wait.collect();
		}
		return woken;
	}

	private List<Wait> waits() {
		List<Wait> current = this.waits;
		if (current != null) {
			return current;
		}
		AbstractRedisClient client = this.factory.getRequiredNativeClient();
		List<Wait> created = new ArrayList<>();
		if (client instanceof RedisClusterClient) {
			this.keys.forEach((key) -> created.add(new Wait(List.of(key))));
		}
		else {
			created.add(new Wait(this.keys));
		}
		this.waits = List.copyOf(created);
		return this.waits;
	}

	@Override
	void abort() {
		this.aborted = true;
		close();
	}

	@Override
	public void close() {
		List<Wait> current = this.waits;
		if (current != null) {
			current.forEach(Wait::close);
		}
	}

	/**
	 * One armed {@code BLPOP} on a connection of its own.
	 */
	private final class Wait {

		private final byte[][] keys;

		private final WakeConnection connection = new WakeConnection(PartitionWakeChannel.this.factory);

		private volatile @Nullable RedisFuture<KeyValue<byte[], byte[]>> pending;

		private long lostAfter;

		Wait(List<String> keys) {
			this.keys = keys.stream().map((key) -> key.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
		}

		CompletableFuture<?> arm(Duration block) {
			RedisFuture<KeyValue<byte[], byte[]>> current = this.pending;
			if (current != null && !current.isDone() && System.nanoTime() - this.lostAfter < 0) {
				return current.toCompletableFuture();
			}
			if (current != null && !current.isDone()) {
				// the reply is overdue: count it lost, drop the connection
				close();
			}
			RedisFuture<KeyValue<byte[], byte[]>> reply = this.connection.blpop(block, this.keys);
			this.pending = reply;
			this.lostAfter = System.nanoTime() + block.plus(LettuceWakeChannel.REPLY_GUARD).toNanos();
			return reply.toCompletableFuture();
		}

		boolean collect() {
			RedisFuture<KeyValue<byte[], byte[]>> current = this.pending;
			if (current == null || !current.isDone()) {
				return false;
			}
			this.pending = null;
			try {
				KeyValue<byte[], byte[]> popped = current.get();
				return popped != null && popped.hasValue() && popped(popped.getKey(), popped.getValue());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
			catch (ExecutionException | java.util.concurrent.CancellationException ex) {
				close();
				return false;
			}
		}

		void close() {
			RedisFuture<?> current = this.pending;
			this.pending = null;
			if (current != null) {
				current.cancel(true);
			}
			this.connection.close();
		}

	}

}
