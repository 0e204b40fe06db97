package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.echomq.core.AwaitTimeoutException;
import io.echomq.core.EchoMqException;
import io.echomq.core.JobCancelledException;
import io.echomq.core.JobFailedException;
import io.echomq.core.JobId;
import io.echomq.core.JobNotFoundException;
import io.echomq.core.QueuePartitions;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
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
 * <p>
 * The Pub/Sub thread only queues what was published: one settling thread takes the queued
 * outcomes in batches and reads the results (and errors) of a whole batch in one
 * pipelined round trip before it completes the futures, so many awaiters cost a round
 * trip per batch, not two per future on the thread that delivers the messages.
 *
 * @author EchoMQ
 */
public final class Waiters extends EnginePart implements AutoCloseable {

	private static final Duration SUBSCRIBE_WAIT = Duration.ofSeconds(5);

	/** Most published outcomes one settling pass reads in one round trip. */
	private static final int SETTLE_BATCH = 256;

	private static final long READ_TIMEOUT_SECONDS = 30;

	private static final byte[] RESULT = bytes("result");

	private static final byte[] LAST_ERROR = bytes("last_error");

	private final Map<String, String> queueOfChannel = new ConcurrentHashMap<>();

	private final Map<String, CompletableFuture<Void>> subscriptions = new ConcurrentHashMap<>();

	private final Map<String, List<CompletableFuture<@Nullable String>>> waiting = new ConcurrentHashMap<>();

	private final Listener listener = new Listener();

	private final BlockingQueue<Published> published = new LinkedBlockingQueue<>();

	private final AtomicBoolean settlerBusy = new AtomicBoolean();

	private final Object lock = new Object();

	private @Nullable RedisMessageListenerContainer container;

	private @Nullable ExecutorService settler;

	private volatile boolean closed;

	Waiters(EngineState state) {
		super(state);
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
				this.settler = Executors.newSingleThreadExecutor((task) -> {
					Thread thread = new Thread(task, "echomq-waiters-settle");
					thread.setDaemon(true);
					return thread;
				});
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
						"no row and no stored result (deleted, cancelled, a batch callback skipped, never enqueued, or finished "
								+ "without a result or with one that expired)"));
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

	/**
	 * Queue a published outcome for the settling thread: the Pub/Sub thread never reads
	 * from the server.
	 */
	void published(String queue, String id, String outcome) {
		this.published.add(new Published(queue, id, outcome));
		if (this.settlerBusy.compareAndSet(false, true)) {
			ExecutorService settler;
			synchronized (this.lock) {
				settler = this.settler;
			}
			try {
				if (settler == null) {
					throw new RejectedExecutionException("closed");
				}
				settler.execute(this::settlePublished);
			}
			catch (RejectedExecutionException ex) {
				// closed: close() completes every waiting future
				this.settlerBusy.set(false);
			}
		}
	}

	private void settlePublished() {
		List<Published> batch = new ArrayList<>(SETTLE_BATCH);
		while (true) {
			this.published.drainTo(batch, SETTLE_BATCH);
			if (batch.isEmpty()) {
				this.settlerBusy.set(false);
				if (this.published.isEmpty() || !this.settlerBusy.compareAndSet(false, true)) {
					return;
				}
				continue;
			}
			settle(batch);
			batch.clear();
		}
	}

	/** Settle every future of this JVM awaiting a job of the batch. */
	private void settle(List<Published> batch) {
		List<Settling> reads = new ArrayList<>(batch.size());
		for (Published outcome : batch) {
			List<CompletableFuture<@Nullable String>> futures = this.waiting
				.get(waiterKey(outcome.queue(), outcome.id()));
			if (futures == null || futures.isEmpty() || !JobId.isValid(outcome.id())) {
				continue;
			}
			Settling settling = new Settling(outcome.queue(), JobId.parse(outcome.id()), outcome.outcome(), futures);
			switch (outcome.outcome()) {
				case "completed", "dead" -> reads.add(settling);
				default -> settling.settle(null, null);
			}
		}
		if (reads.isEmpty()) {
			return;
		}
		try {
			readAll(reads);
		}
		catch (RuntimeException ex) {
			EchoMqException failure = new EchoMqException("Could not read the outcome of an awaited job", ex);
			reads.forEach((settling) -> settling.futures().forEach((future) -> future.completeExceptionally(failure)));
		}
	}

	/**
	 * Read the results of the completed jobs and the errors of the dead ones, every
	 * command sent before any reply is awaited (Lettuce pipelines them on the wire).
	 */
	private void readAll(List<Settling> reads) {
		this.template.execute((RedisCallback<Object>) (connection) -> {
			@SuppressWarnings("unchecked")
			RedisClusterAsyncCommands<byte[], byte[]> async = (RedisClusterAsyncCommands<byte[], byte[]>) connection
				.getNativeConnection();
			List<RedisFuture<byte[]>> replies = new ArrayList<>(reads.size() * 2);
			for (Settling settling : reads) {
				QueueKeys keys = this.state.keys(settling.queue());
				byte[] row = bytes(keys.row(settling.id()));
				if ("completed".equals(settling.outcome())) {
					replies.add(async.get(bytes(keys.result(settling.id()))));
					replies.add(async.hget(row, RESULT));
				}
				else {
					replies.add(async.hget(row, LAST_ERROR));
					replies.add(null);
				}
			}
			for (int i = 0; i < reads.size(); i++) {
				reads.get(i).settle(await(replies.get(2 * i)), await(replies.get(2 * i + 1)));
			}
			return null;
		});
	}

	private static @Nullable String await(@Nullable RedisFuture<byte[]> reply) {
		if (reply == null) {
			return null;
		}
		try {
			byte[] value = reply.get(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
			return (value != null) ? new String(value, StandardCharsets.UTF_8) : null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new EchoMqException("Interrupted while reading an awaited outcome", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new EchoMqException("Could not read an awaited outcome", ex);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
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
		ExecutorService settler;
		synchronized (this.lock) {
			this.closed = true;
			container = this.container;
			this.container = null;
			settler = this.settler;
			this.settler = null;
		}
		if (settler != null) {
			settler.shutdown();
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

	/** An outcome the done channel published. */
	private record Published(String queue, String id, String outcome) {
	}

	/**
	 * The futures awaiting one job, and how to settle them once what the outcome needs is
	 * read.
	 */
	private record Settling(String queue, JobId id, String outcome, List<CompletableFuture<@Nullable String>> futures) {

		/**
		 * Settle the futures: {@code first} is the result key's value (completed) or the
		 * row's last error (dead), {@code second} the retained row's result.
		 */
		void settle(@Nullable String first, @Nullable String second) {
			switch (this.outcome) {
				case "completed" -> {
					String result = (first != null) ? first : second;
					this.futures.forEach((future) -> future.complete(result));
				}
				case "dead" -> this.futures.forEach(
						(future) -> future.completeExceptionally(new JobFailedException(this.queue, this.id, first)));
				case "cancelled" -> this.futures
					.forEach((future) -> future.completeExceptionally(new JobCancelledException(this.queue, this.id)));
				case "quarantined" -> this.futures.forEach((future) -> future
					.completeExceptionally(new JobFailedException(this.queue, this.id, "quarantined")));
				case "skipped" -> this.futures
					.forEach((future) -> future.completeExceptionally(new JobNotFoundException(this.queue, this.id,
							"skipped: a callback its batch will never call for (a success callback after a death, "
									+ "a death callback when none died), retired with its row")));
				default -> this.futures.forEach((future) -> future.completeExceptionally(
						new JobNotFoundException(this.queue, this.id, this.outcome + " before it finished")));
			}
		}

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
				published(queue, body.substring(space + 1), body.substring(0, space));
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
