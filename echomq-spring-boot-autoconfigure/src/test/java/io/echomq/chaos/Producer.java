package io.echomq.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;

/**
 * Enqueues jobs one by one on a thread of its own, at a steady pace, until it enqueued
 * its count or is stopped. An enqueue that returned is <em>acknowledged</em>: its id and
 * the time of the reply are kept. An enqueue that threw is counted as failed (it may or
 * may not have been written: the reply was lost), and the producer goes on.
 *
 * @author EchoMQ
 */
final class Producer implements AutoCloseable {

	private final int count;

	private final Duration pace;

	private final IntFunction<JobId> enqueue;

	private final List<JobId> acknowledged = new CopyOnWriteArrayList<>();

	private final Map<JobId, Long> acknowledgedAt = new ConcurrentHashMap<>();

	private final AtomicInteger failures = new AtomicInteger();

	private final List<String> failureMessages = new CopyOnWriteArrayList<>();

	private final CountDownLatch stop = new CountDownLatch(1);

	private final CountDownLatch done = new CountDownLatch(1);

	private final Thread thread;

	private volatile Duration pauseAfterFailure;

	/**
	 * Create a producer.
	 * @param jobs the engine to enqueue with
	 * @param queue the queue
	 * @param count the most jobs to enqueue
	 * @param pace the pause between two enqueues
	 * @param payloads the payload of the n-th job
	 * @param specs the spec of the n-th job
	 */
	Producer(Engine jobs, String queue, int count, Duration pace, IntFunction<String> payloads,
			IntFunction<EnqueueSpec> specs) {
		this(queue, count, pace, (n) -> jobs.enqueues().enqueue(queue, payloads.apply(n), specs.apply(n)));
	}

	private Producer(String queue, int count, Duration pace, IntFunction<JobId> enqueue) {
		this.count = count;
		this.pace = pace;
		this.enqueue = enqueue;
		this.pauseAfterFailure = pace;
		this.thread = new Thread(this::run, "chaos-producer-" + queue);
		this.thread.setDaemon(true);
	}

	/**
	 * Create a producer of plain jobs with the given attempt budget.
	 * @param jobs the engine
	 * @param queue the queue
	 * @param count the most jobs
	 * @param pace the pause between two enqueues
	 * @param maxAttempts the attempt budget of each job
	 * @return the producer, not started
	 */
	static Producer plain(Engine jobs, String queue, int count, Duration pace, int maxAttempts) {
		EnqueueSpec spec = EnqueueSpec.defaults().withMaxAttempts(maxAttempts);
		return new Producer(jobs, queue, count, pace, (n) -> "p" + n, (n) -> spec);
	}

	/**
	 * Create a producer that enqueues through a template, so that a partitioned queue's
	 * jobs go round-robin over its partitions.
	 * @param template the template
	 * @param queue the queue
	 * @param count the most jobs
	 * @param pace the pause between two enqueues
	 * @return the producer, not started
	 */
	static Producer through(EchoMqTemplate template, String queue, int count, Duration pace) {
		return new Producer(queue, count, pace, (n) -> template.enqueue(queue, "p" + n));
	}

	/**
	 * Pause longer after an enqueue that threw, as a client that retries with a backoff
	 * does: a connection that rejects commands at once (a cluster node the client is
	 * disconnected from) would otherwise use up the count within the outage.
	 * @param pause the pause after a failure (the pace by default)
	 * @return this producer
	 */
	Producer pauseAfterFailure(Duration pause) {
		this.pauseAfterFailure = pause;
		return this;
	}

	/**
	 * Start enqueuing.
	 * @return this producer
	 */
	Producer start() {
		this.thread.start();
		return this;
	}

	private void run() {
		try {
			for (int n = 0; n < this.count && this.stop.getCount() > 0; n++) {
				Duration pause = this.pace;
				try {
					acknowledge(this.enqueue.apply(n), System.currentTimeMillis());
				}
				catch (RuntimeException ex) {
					this.failures.incrementAndGet();
					this.failureMessages.add(ex.toString());
					pause = this.pauseAfterFailure;
				}
				if (this.stop.await(pause.toNanos(), TimeUnit.NANOSECONDS)) {
					break;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.done.countDown();
		}
	}

	/**
	 * Count a job enqueued elsewhere (a backlog loaded before the start) as acknowledged.
	 * @param id the job
	 * @param at the local epoch ms of the reply
	 */
	void acknowledge(JobId id, long at) {
		this.acknowledgedAt.put(id, at);
		this.acknowledged.add(id);
	}

	/**
	 * Return the acknowledged ids, in enqueue order.
	 * @return a snapshot
	 */
	List<JobId> acknowledged() {
		return new ArrayList<>(this.acknowledged);
	}

	/**
	 * Return how many enqueues were acknowledged so far.
	 * @return the count
	 */
	int acknowledgedCount() {
		return this.acknowledged.size();
	}

	/**
	 * Return when an enqueue was acknowledged.
	 * @param id the job
	 * @return the local epoch ms of the reply
	 */
	long acknowledgedAt(JobId id) {
		return this.acknowledgedAt.get(id);
	}

	/**
	 * Return how many enqueues threw.
	 * @return the count
	 */
	int failures() {
		return this.failures.get();
	}

	/**
	 * Return what the enqueues that threw threw.
	 * @return the failures, as strings, in order
	 */
	List<String> failureMessages() {
		return new ArrayList<>(this.failureMessages);
	}

	/**
	 * Return whether the producer finished.
	 * @return {@code true} once it enqueued its count or was stopped
	 */
	boolean isDone() {
		return this.done.getCount() == 0;
	}

	/**
	 * Wait until the producer finished its count.
	 * @param timeout how long to wait
	 * @return {@code true} if it finished
	 * @throws InterruptedException if interrupted
	 */
	boolean awaitDone(Duration timeout) throws InterruptedException {
		return this.done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Stop enqueuing and wait for the thread to end.
	 */
	@Override
	public void close() {
		this.stop.countDown();
		try {
			this.done.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
