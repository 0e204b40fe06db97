package io.echomq.core.internal;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

import io.echomq.core.Durability;
import io.echomq.core.JobId;
import io.echomq.core.ReplicationTimeoutException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.Assert;

/**
 * Writes that return only once replicas acknowledged them: the scripts run on a
 * connection of their own, followed on that same connection by {@code WAIT}. The shared
 * connection cannot serve: {@code WAIT} blocks its connection until the replicas answer
 * (every other command multiplexed on it would wait too), and proves something only about
 * the writes of its own connection.
 * <p>
 * The connection is one, opened on first use from the connection factory's own client (so
 * with its address, credentials, TLS and, under Sentinel, its current primary), and
 * durable writes take turns on it: their throughput is one write-and-wait at a time per
 * application. Queues without a {@link Durability} never come here.
 *
 * @author EchoMQ
 */
public final class ReplicaAcknowledgements {

	private final ScriptExecutor executor;

	private final ReentrantLock lock = new ReentrantLock();

	private final LongAdder waits = new LongAdder();

	private @Nullable StatefulRedisConnection<byte[], byte[]> connection;

	/**
	 * Create the writer on the executor whose connection factory it takes its client
	 * from.
	 * @param executor the script executor
	 */
	public ReplicaAcknowledgements(ScriptExecutor executor) {
		Assert.notNull(executor, "'executor' must not be null");
		this.executor = executor;
	}

	/**
	 * Run a write on the dedicated connection, then wait for the replicas.
	 * @param <T> the write's result
	 * @param queue the logical queue, for the error
	 * @param durability how many replicas, how long
	 * @param write the script calls that write
	 * @param written the jobs the result wrote, for the error
	 * @return the write's result, once enough replicas have it
	 * @throws ReplicationTimeoutException if fewer replicas acknowledged in time (the
	 * write stands)
	 */
	public <T> T write(String queue, Durability durability, Supplier<T> write, Function<T, List<JobId>> written) {
		this.lock.lock();
		try {
			StatefulRedisConnection<byte[], byte[]> current = connection(queue);
			T result = this.executor.pinnedTo(current.async(), write);
			long acknowledged = await(current, durability);
			if (acknowledged < durability.replicas()) {
				throw new ReplicationTimeoutException(queue, written.apply(result), acknowledged, durability.replicas(),
						durability.timeout());
			}
			return result;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Return how many {@code WAIT} commands were sent.
	 * @return the number of waits
	 */
	public long getWaits() {
		return this.waits.sum();
	}

	private long await(StatefulRedisConnection<byte[], byte[]> current, Durability durability) {
		long timeoutMillis = durability.timeout().toMillis();
		this.waits.increment();
		try {
			Long acknowledged = current.async()
				.waitForReplication(durability.replicas(), timeoutMillis)
				.get(timeoutMillis + this.executor.commandTimeout().toMillis(), TimeUnit.MILLISECONDS);
			return (acknowledged != null) ? acknowledged : 0;
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			throw new RedisSystemException(
					"EchoMQ's WAIT for " + durability.replicas() + " replicas failed: the write "
							+ "was sent to the primary, whether a replica has it is unknown: " + cause.getMessage(),
					cause);
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException(
					"EchoMQ's WAIT for " + durability.replicas() + " replicas got no reply: the "
							+ "write was sent to the primary, whether a replica has it is unknown",
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisSystemException(
					"Interrupted in EchoMQ's WAIT: the write was sent to the primary, whether a replica has it is unknown",
					ex);
		}
	}

	private StatefulRedisConnection<byte[], byte[]> connection(String queue) {
		StatefulRedisConnection<byte[], byte[]> current = this.connection;
		if (current != null && current.isOpen()) {
			return current;
		}
		if (current != null) {
			current.closeAsync();
		}
		if (!(this.executor.getTemplate().getConnectionFactory() instanceof LettuceConnectionFactory factory)) {
			throw new IllegalStateException("A durability for queue '" + queue
					+ "' (replica-acknowledged enqueue) needs Lettuce's LettuceConnectionFactory, the one Spring Boot "
					+ "configures by default");
		}
		if (this.executor.isCluster() || !(factory.getRequiredNativeClient() instanceof RedisClient client)) {
			throw new IllegalStateException("A durability for queue '" + queue
					+ "' (replica-acknowledged enqueue) is not supported on a Redis Cluster: WAIT has to follow the "
					+ "write on the connection to the master of the queue's slot. Use it with a standalone or "
					+ "Sentinel-managed primary, or remove echomq.queues." + queue + ".durability");
		}
		current = client.connect(ByteArrayCodec.INSTANCE);
		this.connection = current;
		return current;
	}

}
