package io.echomq.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.ClaimedJob;
import io.echomq.core.CompleteAndClaimResult;
import io.echomq.core.FencingToken;
import io.echomq.core.JobId;
import io.echomq.core.TransitionResult;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Sends the completions of one container's jobs in batches, on {@value #THREADS} threads
 * of its own: a worker whose handler returned hands its job here and is free at once, and
 * a sending thread sends whatever completions are waiting as one pipelined round trip
 * ({@link io.echomq.core.io.echomq.core.internal.Outcomes#completeAll}), each still its
 * own fenced {@code complete} script call. Per job this saves the worker's wait for its
 * reply and the wake-ups of the connection's event loop and of the worker, which were
 * most of the client's CPU per job. The job stays in flight (its slot taken) until its
 * completion is recorded, so a stop still waits for it; a completion whose batched call
 * had no clear reply is sent again alone, with the usual retries
 * ({@link LeasedJob#completed}). On a partitioned queue such a job gives its slot back
 * first: its partition's master may be down, and the retries must not hold the slots the
 * live partitions need.
 * <p>
 * Each job id belongs to one thread, so the completions of one job, whatever run they
 * come from, are sent in the order they were handed over: a completion sent again alone
 * is settled before a later run's completion of the same job goes out. (Should a later
 * run retire the row first all the same, the resent completion that finds it retired is
 * not taken for applied: the container told the earlier run it was claimed again,
 * {@link LeasedJob#claimedAgain}.)
 * <p>
 * While the queue has a backlog, the same round trip claims the next jobs for the slots
 * the batch frees
 * ({@link io.echomq.core.io.echomq.core.internal.Claims#completeAllAndClaim}): each such
 * slot passes straight from a settled job to a claimed one, with no turn of the poller in
 * between.
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

	private final QueueListenerContainer container;

	private final Sender[] senders = new Sender[THREADS];

	private final LongAdder claimed = new LongAdder();

	private volatile boolean stopping;

	private @Nullable Executor partitionSender;

	CompletionBatcher(QueueListenerContainer container) {
		this.container = container;
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
	 * Hand over a settled job's completion.
	 * @return whether it will be sent from here; {@code false} once this batcher ended
	 * (the caller sends it itself)
	 */
	boolean add(LeasedJob job, Duration took) {
		return this.senders[senderOf(job.id())].add(new Pending(job, took));
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
	 * Return how many jobs were claimed with completions, in their round trip.
	 * @return the count since the container started
	 */
	long claimedWithCompletions() {
		return this.claimed.sum();
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
		if (this.container.getPartitions().size() == 1) {
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
			String name = "echomq-acks-" + this.container.getQueue() + "-partition-";
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
		List<JobId> ids = new ArrayList<>(batch.size());
		List<FencingToken> tokens = new ArrayList<>(batch.size());
		List<@Nullable String> uniqueKeys = new ArrayList<>(batch.size());
		for (Pending pending : batch) {
			ids.add(pending.job().id());
			tokens.add(pending.job().job().token());
			uniqueKeys.add(pending.job().job().uniqueKey());
		}
		List<@Nullable TransitionResult> results = null;
		List<ClaimedJob> next = List.of();
		try {
			int claimable = this.container.claimsWithCompletions(batch.size());
			if (claimable > 0) {
				ContainerSettings settings = this.container.getSettings();
				CompleteAndClaimResult reply = this.container.jobs()
					.claims()
					.completeAllAndClaim(queue, ids, tokens, uniqueKeys, settings.lease(), claimable, settings.limits(),
							this.container.getNode());
				results = reply.completions();
				next = reply.claim().jobs();
			}
			else {
				results = this.container.jobs().outcomes().completeAll(queue, ids, tokens, uniqueKeys);
			}
		}
		catch (Throwable ex) {
			logger.debug(ex, () -> "Batch of " + batch.size() + " completions failed; sending them one by one");
		}
		List<LeasedJob> leased = new ArrayList<>(next.size());
		for (ClaimedJob job : next) {
			leased.add(this.container.lease(job));
		}
		if (!leased.isEmpty() && this.container.isPaused()) {
			// paused while the claim was on the wire: hand the jobs back rather than run
			// them
			leased.forEach(this::release);
			leased.clear();
		}
		this.claimed.add(leased.size());
		// a partition's master may be down: the completions sent again alone wait out its
		// timeouts, and
		// their slots must not wait with them, or the live partitions' jobs find none
		// free
		if (this.container.getPartitions().size() > 1) {
			for (int i = 0; i < batch.size(); i++) {
				if (results == null || results.get(i) == null) {
					this.container.giveBackSlot(batch.get(i).job());
				}
			}
		}
		int handed = 0;
		for (int i = 0; i < batch.size(); i++) {
			Pending pending = batch.get(i);
			try {
				pending.job().completed((results != null) ? results.get(i) : null, pending.took());
			}
			catch (Throwable ex) {
				logger.error(ex, () -> "Unexpected failure while recording the completion of " + pending.job());
			}
			finally {
				// a slot given back above is no longer the job's to hand over
				if (handed < leased.size() && this.container.handOver(pending.job())) {
					this.container.dispatch(leased.get(handed++));
				}
				else {
					this.container.finished(pending.job());
				}
			}
		}
		for (int i = handed; i < leased.size(); i++) {
			release(leased.get(i));
		}
	}

	private void release(LeasedJob job) {
		this.container.forget(job);
		try {
			job.release();
		}
		catch (Throwable ex) {
			logger.warn(ex, () -> "Cannot hand back " + job + "; it runs again when its lease expires");
		}
	}

	private record Pending(LeasedJob job, Duration took) {

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
