package io.echomq.benchmark;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The engine baseline's consumer of one queue: a poller thread claims as many jobs as
 * there are free slots ({@link io.echomq.core.internal.Claims#claim}, which batches), a
 * fixed pool of workers runs the handler and completes each job, and a dry queue is
 * waited on with {@code BLPOP} on its wake list, on a connection of the poller's own.
 *
 * @author EchoMQ
 */
final class EnginePoller {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long IDLE_WAIT_SECONDS = 2;

	private static final AtomicInteger THREADS = new AtomicInteger();

	private final Engine jobs;

	private final LettuceConnectionFactory connectionFactory;

	private final String queue;

	private final BenchHandler handler;

	private final LongAdder completed;

	private final Semaphore slots;

	private final ExecutorService workers;

	private final Thread thread;

	private final byte[] wakeKey;

	private volatile boolean running = true;

	EnginePoller(Engine jobs, LettuceConnectionFactory connectionFactory, String queue, int concurrency,
			BenchHandler handler, LongAdder completed) {
		this.jobs = jobs;
		this.connectionFactory = connectionFactory;
		this.queue = queue;
		this.handler = handler;
		this.completed = completed;
		this.slots = new Semaphore(concurrency);
		this.wakeKey = jobs.keyspace().queueKey(queue, KeyType.WAKE.suffix()).getBytes(StandardCharsets.UTF_8);
		this.workers = Executors.newFixedThreadPool(concurrency, (task) -> {
			Thread worker = new Thread(task, "bench-worker-" + queue + "-" + THREADS.incrementAndGet());
			worker.setDaemon(true);
			return worker;
		});
		this.thread = new Thread(this::run, "bench-poller-" + queue);
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	void stop() {
		this.running = false;
		// end a blocked BLPOP at once
		this.jobs.executor().getTemplate().opsForList().leftPush(new String(this.wakeKey, StandardCharsets.UTF_8), "1");
	}

	void awaitStopped() {
		try {
			this.thread.join(10_000);
			this.workers.shutdown();
			this.workers.awaitTermination(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void run() {
		RedisClient client = (RedisClient) this.connectionFactory.getRequiredNativeClient();
		try (StatefulRedisConnection<byte[], byte[]> wake = client.connect(ByteArrayCodec.INSTANCE)) {
			while (this.running) {
				int free = this.slots.drainPermits();
				if (free == 0) {
					if (!this.slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
						continue;
					}
					free = 1 + this.slots.drainPermits();
				}
				List<ClaimedJob> claimed = this.jobs.claims().claim(this.queue, LEASE, free);
				this.slots.release(free - claimed.size());
				for (ClaimedJob job : claimed) {
					this.workers.execute(() -> work(job));
				}
				if (claimed.size() < free && this.running) {
					wake.sync().blpop(IDLE_WAIT_SECONDS, this.wakeKey);
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void work(ClaimedJob job) {
		try {
			this.handler.handle(job.payload());
			if (this.jobs.outcomes().complete(job.queue(), job.id(), job.token()).isApplied()) {
				this.completed.increment();
			}
		}
		finally {
			this.slots.release();
		}
	}

}
