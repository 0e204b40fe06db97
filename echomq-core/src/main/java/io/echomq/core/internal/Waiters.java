package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.echomq.core.AwaitTimeoutException;
import io.echomq.core.EchoMqException;
import io.echomq.core.JobCancelledException;
import io.echomq.core.JobFailedException;
import io.echomq.core.JobId;
import io.echomq.core.JobNotFoundException;
import io.echomq.core.QueuePartitions;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisZSetCommands.ZAddArgs;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.Assert;

/**
 * Callers awaiting a job's outcome, across processes: one Pub/Sub connection per engine,
 * opened on the first await, with one subscription per queue's {@link KeyType#DONE done}
 * channel, and the futures of this JVM by job.
 * <p>
 * An await adds the id to the queue's {@link KeyType#WAITERS waiters} (scored by when the
 * wait ends, trimming the entries whose wait ended), subscribes, then reads the job: an
 * outcome reached before the subscription was active is found by that read, one reached
 * after it is published by the script that ends the job ({@code includes/notify.lua}). No
 * polling.
 *
 * @author EchoMQ
 */
public final class Waiters extends EnginePart implements AutoCloseable {

	private static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(5);

	private final Results results;

	private final Map<String, String> queueOfChannel = new ConcurrentHashMap<>();

	private final Map<String, CompletableFuture<Void>> subscriptions = new ConcurrentHashMap<>();

	private final Map<String, List<CompletableFuture<@Nullable String>>> waiting = new ConcurrentHashMap<>();

	private final Listener listener = new Listener();

	private final Object lock = new Object();

	private @Nullable RedisMessageListenerContainer container;

	private volatile boolean closed;

	Waiters(EngineState state, Results results) {
		super(state);
		this.results = results;
	}

	/**
	 * Await a job's outcome.
	 * @param queue the queue (or partition) name
	 * @param id the job id
	 * @param timeout how long to wait at most
	 * @return a future completed with the result as the payload converter wrote it
	 * ({@code null}: the job completed without a result), or exceptionally with
	 * {@link JobFailedException} (dead-lettered or quarantined),
	 * {@link JobCancelledException}, {@link JobNotFoundException} (gone with no result)
	 * or {@link AwaitTimeoutException}
	 */
	public CompletableFuture<@Nullable String> await(String queue, JobId id, Duration timeout) {
		QueuePartitions.validateEngineName(queue);
		Assert.notNull(id, "'id' must not be null");
		ScriptCalls.requirePositive(timeout, "timeout");
		QueueKeys keys = this.state.keys(queue);
		CompletableFuture<@Nullable String> future = new CompletableFuture<>();
		String waiter = waiterKey(queue, id.toString());
		this.waiting.computeIfAbsent(waiter, (key) -> new CopyOnWriteArrayList<>()).add(future);
		future.whenComplete((value, ex) -> forget(waiter, future));
		CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS)
			.execute(() -> future.completeExceptionally(new AwaitTimeoutException(queue, id, timeout)));
		try {
			register(keys, id, timeout);
			subscribe(queue, keys.done());
			settleFromStore(queue, id, future);
		}
		catch (RuntimeException ex) {
			future.completeExceptionally(ex);
		}
		return future;
	}

	/**
	 * Add the id to waiters (its score only raised), trimming entries whose wait ended.
	 */
	private void register(QueueKeys keys, JobId id, Duration timeout) {
		long now = this.state.estimatedServerTime();
		byte[] waiters = keys.waiters().getBytes(StandardCharsets.UTF_8);
		byte[] member = id.toString().getBytes(StandardCharsets.UTF_8);
		this.template.execute((RedisCallback<Object>) (connection) -> {
			connection.zSetCommands().zRemRangeByScore(waiters, Double.NEGATIVE_INFINITY, now);
			connection.zSetCommands().zAdd(waiters, now + timeout.toMillis(), member, ZAddArgs.empty().gt());
			return null;
		});
	}

	private void subscribe(String queue, String channel) {
		CompletableFuture<Void> subscribed = this.subscriptions.computeIfAbsent(channel, (name) -> {
			this.queueOfChannel.put(name, queue);
			CompletableFuture<Void> ready = new CompletableFuture<>();
			this.listener.ready.put(name, ready);
			container().addMessageListener(this.listener, new ChannelTopic(name));
			return ready;
		});
		try {
			subscribed.get(SUBSCRIBE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new EchoMqException("Interrupted while subscribing to " + channel, ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			this.subscriptions.remove(channel, subscribed);
			throw new EchoMqException("Could not subscribe to " + channel + " within " + SUBSCRIBE_WAIT, ex);
		}
	}

	private RedisMessageListenerContainer container() {
		synchronized (this.lock) {
			if (this.closed) {
				throw new IllegalStateException("The waiters are closed");
			}
			RedisMessageListenerContainer container = this.container;
			if (container == null) {
				RedisConnectionFactory factory = this.template.getConnectionFactory();
				Assert.state(factory != null, "No connection factory");
				container = new RedisMessageListenerContainer();
				container.setConnectionFactory(factory);
				container.setBeanName("echomq-waiters");
				container.afterPropertiesSet();
				container.start();
				this.container = container;
			}
			return container;
		}
	}

	/** Read where the job is now: settle the future if it reached an outcome. */
	private void settleFromStore(String queue, JobId id, CompletableFuture<@Nullable String> future) {
		QueueKeys keys = this.state.keys(queue);
		List<Object> row = this.template.opsForHash().multiGet(keys.row(id), List.of("state", "last_error", "result"));
		Object state = row.get(0);
		if (state == null) {
			String kept = this.template.opsForValue().get(keys.result(id));
			if (kept != null) {
				future.complete(kept);
			}
			else {
				future.completeExceptionally(new JobNotFoundException(queue, id,
						"no row and no stored result (deleted, cancelled, never enqueued, or finished without "
								+ "a result or with one that expired)"));
			}
			return;
		}
		switch (state.toString()) {
			case "completed" -> future.complete((row.get(2) != null) ? row.get(2).toString() : null);
			case "dead" -> future.completeExceptionally(
					new JobFailedException(queue, id, (row.get(1) != null) ? row.get(1).toString() : null));
			case "quarantine" -> future.completeExceptionally(new JobFailedException(queue, id, "quarantined"));
			default -> {
				// not final: the script that ends it publishes the outcome
			}
		}
	}

	/** Settle every future of this JVM awaiting the job, from a published outcome. */
	void settle(String queue, String id, String outcome) {
		List<CompletableFuture<@Nullable String>> futures = this.waiting.get(waiterKey(queue, id));
		if (futures == null || futures.isEmpty()) {
			return;
		}
		JobId jobId = JobId.parse(id);
		switch (outcome) {
			case "completed" -> {
				String result = this.results.read(queue, jobId);
				futures.forEach((future) -> future.complete(result));
			}
			case "dead" -> {
				Object error = this.template.opsForHash().get(this.state.keys(queue).row(jobId), "last_error");
				futures.forEach((future) -> future.completeExceptionally(
						new JobFailedException(queue, jobId, (error != null) ? error.toString() : null)));
			}
			case "cancelled" ->
				futures.forEach((future) -> future.completeExceptionally(new JobCancelledException(queue, jobId)));
			case "quarantined" -> futures
				.forEach((future) -> future.completeExceptionally(new JobFailedException(queue, jobId, "quarantined")));
			default -> futures.forEach((future) -> future
				.completeExceptionally(new JobNotFoundException(queue, jobId, outcome + " before it finished")));
		}
	}

	private void forget(String waiter, CompletableFuture<@Nullable String> future) {
		this.waiting.computeIfPresent(waiter, (key, futures) -> {
			futures.remove(future);
			return futures.isEmpty() ? null : futures;
		});
	}

	/**
	 * Return how many futures of this JVM are waiting.
	 * @return the count
	 */
	public int size() {
		return this.waiting.values().stream().mapToInt(List::size).sum();
	}

	/**
	 * Close the Pub/Sub connection; the futures still waiting complete exceptionally. The
	 * jobs are not affected: their results stay readable by id.
	 */
	@Override
	public void close() {
		RedisMessageListenerContainer container;
		synchronized (this.lock) {
			this.closed = true;
			container = this.container;
			this.container = null;
		}
		if (container != null) {
			try {
				container.destroy();
			}
			catch (Exception ex) {
				throw new EchoMqException("Could not close the waiters' subscription", ex);
			}
		}
		this.waiting.values()
			.forEach((futures) -> futures.forEach((future) -> future
				.completeExceptionally(new EchoMqException("Closed while awaiting: the result stays readable by id"))));
	}

	private static String waiterKey(String queue, String id) {
		return queue + ' ' + id;
	}

	private final class Listener implements MessageListener, SubscriptionListener {

		final Map<String, CompletableFuture<Void>> ready = new ConcurrentHashMap<>();

		@Override
		public void onMessage(Message message, byte @Nullable [] pattern) {
			String channel = new String(message.getChannel(), StandardCharsets.UTF_8);
			String queue = Waiters.this.queueOfChannel.get(channel);
			String body = new String(message.getBody(), StandardCharsets.UTF_8);
			int space = body.indexOf(' ');
			if (queue != null && space > 0) {
				settle(queue, body.substring(space + 1), body.substring(0, space));
			}
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			CompletableFuture<Void> future = this.ready.get(new String(channel, StandardCharsets.UTF_8));
			if (future != null) {
				future.complete(null);
			}
		}

	}

}
