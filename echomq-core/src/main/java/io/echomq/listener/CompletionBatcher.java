package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Sends the completions of one container's jobs in batches, on {@value #THREADS} threads
 * of its own: a worker whose handler returned hands its job here and is free at once, and
 * a sending thread sends whatever completions are waiting as one pipelined round trip
 * ({@link io.echomq.core.Jobs#completeAll}), each still its own fenced {@code complete}
 * script call. Per job this saves the worker's wait for its reply and the wake-ups of the
 * connection's event loop and of the worker, which were most of the client's CPU per job.
 * The batcher calls no one back: each completion handed over comes with a
 * {@link CompletableFuture} that it completes with the {@link Reply} (the script's reply,
 * and the job claimed for the slot it frees), on the sending thread, and whoever handed
 * it over records it from there. The job stays in flight (its slot taken) until its
 * completion is recorded, so a stop still waits for it; a completion whose batched call
 * had no clear reply is sent again alone, with the usual retries
 * ({@link LeasedJob#completed}). On a partitioned queue such a job gives its slot back
 * here first ({@link Runs#giveBackSlot}): its partition's master may be down, and the
 * retries must not hold the slots the live partitions need.
 * <p>
 * Each job id belongs to one thread, so the completions of one job, whatever run they
 * come from, are sent in the order they were handed over: a completion sent again alone
 * is settled before a later run's completion of the same job goes out. (Should a later
 * run retire the row first all the same, the resent completion that finds it retired is
 * not taken for applied: the container told the earlier run it was claimed again,
 * {@link LeasedJob#claimedAgain}.)
 * <p>
 * While the queue has a backlog, the same round trip claims the next jobs for the slots
 * the batch frees ({@link ContainerClaims#completeAll}): each such slot passes straight
 * from a settled job to a claimed one, with no turn of the poller in between.
 *
 * @author EchoMQ
 */
final class CompletionBatcher {

	private static final LogAccessor logger = new LogAccessor(CompletionBatcher.class);

	/**
	 * Threads sending completions: while one waits for its reply, the next batch goes out
	 * on the other, so the server and this JVM work at the same time.
	 */
	static final int THREADS = 2;

	/** Most completions sent in one round trip. */
	static final int MAX_BATCH = 64;

	private static final Duration IDLE_WAIT = Duration.ofSeconds(30);

	private final String queue;

	private final Runs runs;

	private final ContainerClaims claims;

	private final Sender[] senders = new Sender[THREADS];

	private volatile boolean stopping;

	private @Nullable Executor partitionSender;

	CompletionBatcher(String queue, Runs runs, ContainerClaims claims) {
		this.queue = queue;
		this.runs = runs;
		this.claims = claims;
		for (int i = 0; i < THREADS; i++) {
			this.senders[i] = new Sender();
		}
	}

	/**
	 * Start the sending threads.
	 * @param name the threads' name, numbered from 1
	 */
	void start(String name) {
		for (int i = 0; i < THREADS; i++) {
			Thread thread = new Thread(this.senders[i], name + (i + 1));
			thread.setDaemon(true);
			thread.start();
		}
	}

	/**
	 * Hand over a settled job's completion. Register what follows the reply on
	 * {@code reply} before: the sending thread completes it, and runs it then, before it
	 * sends the next completions of the same job.
	 * @param job the settled job
	 * @param reply completed with the reply once the completion was sent
	 * @return whether it will be sent from here; {@code false} once this batcher ended
	 * (the caller sends it itself, and {@code reply} is never completed)
	 */
	boolean add(LeasedJob job, CompletableFuture<Reply> reply) {
		return this.senders[senderOf(job.id())].add(new Pending(job, reply));
	}

	/**
	 * Return the thread that sends a job's completions, whatever run they come from.
	 * @param id the job
	 * @return the thread's index, from 0
	 */
	static int senderOf(JobId id) {
		return Math.floorMod(id.hashCode(), THREADS);
	}

	/**
	 * End the thread once every completion handed over so far is sent.
	 */
	void stop() {
		this.stopping = true;
		for (Sender sender : this.senders) {
			sender.signal.raise();
		}
	}

	private void send(List<Pending> batch) {
		// a partitioned queue's jobs live in their partitions: one batch call per engine
		// queue
		Map<String, List<Pending>> byQueue = new LinkedHashMap<>();
		for (Pending pending : batch) {
			byQueue.computeIfAbsent(pending.job().queue(), (queue) -> new ArrayList<>()).add(pending);
		}
		if (!this.claims.isPartitioned()) {
			byQueue.forEach(this::send);
			return;
		}
		// one partition's master may be down: its calls wait out the command timeout (and
		// the
		// retries) on a thread of their own, so the other partitions' completions are not
		// held up,
		// even when a batch holds only the dead partition's jobs
		byQueue.forEach((queue, group) -> partitionSender().execute(() -> send(queue, group)));
	}

	private synchronized Executor partitionSender() {
		Executor sender = this.partitionSender;
		if (sender == null) {
			String name = "echomq-acks-" + this.queue + "-partition-";
			AtomicInteger count = new AtomicInteger();
			sender = Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, name + count.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});
			this.partitionSender = sender;
		}
		return sender;
	}

	private void send(String queue, List<Pending> batch) {
		List<LeasedJob> settled = new ArrayList<>(batch.size());
		for (Pending pending : batch) {
			settled.add(pending.job());
		}
		try {
			ContainerClaims.Completions sent = this.claims.completeAll(queue, settled);
			// a partition's master may be down: the completions sent again alone wait out
			// its timeouts, and their slots must not wait with them, or the live
			// partitions' jobs find none free
			if (this.claims.isPartitioned()) {
				for (int i = 0; i < batch.size(); i++) {
					if (sent.result(i) == null) {
						this.runs.giveBackSlot(batch.get(i).job());
					}
				}
			}
			List<LeasedJob> next = sent.next();
			for (int i = 0; i < batch.size(); i++) {
				batch.get(i).reply().complete(new Reply(sent.result(i), (i < next.size()) ? next.get(i) : null));
			}
		}
		catch (Throwable ex) {
			logger.error(ex, () -> "Unexpected failure while sending " + batch.size() + " completions");
		}
		finally {
			// every completion handed over is recorded, sent again alone if need be
			for (Pending pending : batch) {
				pending.reply().complete(new Reply(null, null));
			}
		}
	}

	/**
	 * What came of a completion sent in a batch.
	 *
	 * @param result the script's reply, or {@code null} when the batch could not tell
	 * whether it applied (it is then sent again alone)
	 * @param next a job claimed with the completion to take the slot it frees, or
	 * {@code null}
	 */
	record Reply(@Nullable TransitionResult result, @Nullable LeasedJob next) {

	}

	private record Pending(LeasedJob job, CompletableFuture<Reply> reply) {

	}

	/**
	 * One sending thread's completions.
	 */
	private final class Sender implements Runnable {

		private final ConcurrentLinkedQueue<Pending> waiting = new ConcurrentLinkedQueue<>();

		private final Signal signal = new Signal();

		private volatile boolean done;

		boolean add(Pending pending) {
			this.waiting.add(pending);
			// the thread sets done before its last poll: either that poll finds this one,
			// or it is taken back here
			if (this.done && this.waiting.remove(pending)) {
				return false;
			}
			this.signal.raise();
			return true;
		}

		@Override
		public void run() {
			List<Pending> batch = new ArrayList<>(MAX_BATCH);
			while (true) {
				Pending next;
				while (batch.size() < MAX_BATCH && (next = this.waiting.poll()) != null) {
					batch.add(next);
				}
				if (batch.isEmpty()) {
					if (CompletionBatcher.this.stopping) {
						this.done = true;
						Pending late = this.waiting.poll();
						if (late == null) {
							return;
						}
						batch.add(late);
						continue;
					}
					this.signal.await(IDLE_WAIT);
					continue;
				}
				send(batch);
				batch.clear();
			}
		}

	}

}
