package io.echomq.listener;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.echomq.core.EchoMqNode;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.QueueSignals;
import io.echomq.core.internal.StoredFormat;
import io.echomq.crypto.QueueEncryption;
import io.echomq.inspect.QueueNodes;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Consumes one queue: a {@link JobPoller} thread claims jobs up to the concurrency
 * ({@link ContainerClaims}), {@link Workers} run their handler on a per-start executor, a
 * {@link LeaseKeeper} renews their leases while they run, and a {@link CompletionBatcher}
 * sends their completions. The container builds these parts and gives each the ledger
 * they share ({@link Runs}: slots, runs, signals); none of them calls the container back.
 * <p>
 * {@link #stop(Runnable)} stops claiming at once, waits up to the shutdown timeout for
 * in-flight handlers, then hands back to pending whatever did not finish
 * ({@link io.echomq.core.internal.Outcomes#release}), so nothing waits for a lease to
 * expire. Handlers still running after that are interrupted (their executor is shut down)
 * and their outcome is not recorded: the job may already run elsewhere.
 * <p>
 * A job whose lease renewal comes back stale (it was reaped, perhaps claimed elsewhere)
 * is marked lost: its handler is not interrupted, but its outcome is not recorded, and
 * {@link #getStaleCount()} grows. Each claimed job is a {@link LeasedJob}, the one place
 * its fencing token is used and its outcome recorded.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class QueueListenerContainer {

	private static final LogAccessor logger = new LogAccessor(QueueListenerContainer.class);

	private final ContainerSettings settings;

	private final JobHandler handler;

	/** Opens the payload of each job before its handler and interceptors see it. */
	private final QueueEncryption encryption;

	private final List<JobInvocationInterceptor> interceptors;

	private final Engine jobs;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final QueueSignals signals;

	private final StoredFormat formats;

	private final JobExecutorFactory executorFactory;

	private final LeaseKeeper leaseKeeper;

	private final JobEvents events;

	private final ReentrantLock lifecycleLock = new ReentrantLock();

	private final Runs runs;

	private final ListenerCounters counters = new ListenerCounters();

	private final ContainerClaims claims;

	private final EchoMqNode node;

	private final QueuePartitions partitions;

	private final ListenerBeacon beacon;

	private final ConcurrencyWatch concurrency;

	private volatile @Nullable TaskExecutor executor;

	private volatile @Nullable JobPoller poller;

	private volatile @Nullable CompletionBatcher completions;

	private volatile @Nullable Thread pollerThread;

	QueueListenerContainer(ContainerSettings settings, JobHandler handler, Engine jobs,
			JobExecutorFactory executorFactory, LeaseKeeper leaseKeeper, JobEvents events,
			List<JobInvocationInterceptor> interceptors) {
		this(settings, handler, jobs, executorFactory, leaseKeeper, events, interceptors,
				QueuePartitions.of(settings.queue(), 1));
	}

	QueueListenerContainer(ContainerSettings settings, JobHandler handler, Engine jobs,
			JobExecutorFactory executorFactory, LeaseKeeper leaseKeeper, JobEvents events,
			List<JobInvocationInterceptor> interceptors, QueuePartitions partitions) {
		this(settings, handler, jobs, executorFactory, leaseKeeper, events, interceptors, partitions,
				EchoMqNode.local(null));
	}

	QueueListenerContainer(ContainerSettings settings, JobHandler handler, Engine jobs,
			JobExecutorFactory executorFactory, LeaseKeeper leaseKeeper, JobEvents events,
			List<JobInvocationInterceptor> interceptors, QueuePartitions partitions, EchoMqNode node) {
		this(settings, handler, jobs, executorFactory, leaseKeeper, events, interceptors, partitions, node,
				QueueEncryption.none());
	}

	QueueListenerContainer(ContainerSettings settings, JobHandler handler, Engine jobs,
			JobExecutorFactory executorFactory, LeaseKeeper leaseKeeper, JobEvents events,
			List<JobInvocationInterceptor> interceptors, QueuePartitions partitions, EchoMqNode node,
			QueueEncryption encryption) {
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(encryption, "'encryption' must not be null");
		Assert.notNull(node, "'node' must not be null");
		Assert.isTrue(partitions.queue().equals(settings.queue()),
				() -> "partitions of '" + partitions.queue() + "' for queue '" + settings.queue() + "'");
		Assert.notNull(handler, "'handler' must not be null");
		this.settings = settings;
		this.handler = handler;
		this.interceptors = List.copyOf(interceptors);
		this.jobs = jobs;
		this.keyspace = jobs.keyspace();
		this.template = jobs.executor().getTemplate();
		this.signals = jobs.signals();
		this.formats = jobs.formats();
		this.executorFactory = executorFactory;
		this.leaseKeeper = leaseKeeper;
		this.events = events;
		this.node = node;
		this.partitions = partitions;
		this.encryption = encryption;
		this.runs = new Runs(settings.concurrency() + settings.claimAhead(), settings.concurrency());
		this.claims = new ContainerClaims(partitions, jobs, settings, node, this.runs, this.counters, events);
		this.beacon = new ListenerBeacon(settings, this.runs, this.counters, new QueueNodes(jobs), node);
		this.concurrency = new ConcurrencyWatch(settings, this.runs, jobs.admin(), partitions.name(0));
	}

	/**
	 * Start claiming. Does nothing if already running.
	 */
	public void start() {
		this.lifecycleLock.lock();
		try {
			if (this.runs.isRunning()) {
				return;
			}
			String queue = this.settings.queue();
			checkFormats();
			TaskExecutor created = this.executorFactory.createExecutor(queue, this.concurrency.startWith());
			this.concurrency.executor(created);
			this.executor = created;
			Map<String, String> partitionsByWakeKey = new LinkedHashMap<>();
			this.claims.names()
				.forEach((partition) -> partitionsByWakeKey
					.put(this.keyspace.queueKey(partition, KeyType.WAKE.suffix()), partition));
			WakeChannel wake = WakeChannel.create(this.template.getRequiredConnectionFactory(),
					List.copyOf(partitionsByWakeKey.keySet()));
			QueueSignals signals = this.signals;
			wake.onScheduleToken((wakeKey) -> {
				String partition = partitionsByWakeKey.get(wakeKey);
				if (partition != null) {
					signals.scheduleChanged(partition);
				}
			});
			CompletionBatcher batcher = new CompletionBatcher(queue, this.runs, this.claims);
			batcher.start("echomq-acks-" + queue + "-");
			this.completions = batcher;
			Workers workers = new Workers(this.settings, this.handler, this.interceptors, this.runs, this.claims,
					this.leaseKeeper, this.events, created, batcher, this.encryption);
			JobPoller poller = new JobPoller(this.settings, this.runs, this.claims, workers, this.beacon, wake,
					this.concurrency);
			this.poller = poller;
			this.runs.running(true);
			Thread thread = new Thread(poller, "echomq-poller-" + queue);
			thread.setDaemon(true);
			this.pollerThread = thread;
			thread.start();
			partitionsByWakeKey.values().forEach(signals::queueOpened);
			logger.debug(() -> "Started listener '" + this.settings.id() + "' on queue '" + queue + "'");
		}
		finally {
			this.lifecycleLock.unlock();
		}
	}

	/**
	 * Refuse a queue stored in a format this release does not read. A server that does
	 * not answer yet does not stop the start: every claim checks the format first.
	 */
	private void checkFormats() {
		for (String name : this.claims.names()) {
			try {
				this.formats.check(name);
			}
			catch (DataAccessException ex) {
				Supplier<String> message = () -> "Cannot check the stored format of queue '" + name + "' now ("
						+ ex.getMessage() + "); it is checked before the first claim";
				if (ex instanceof RedisConnectionFailureException) {
					// an unreachable server is the poller's to report
					logger.debug(message);
				}
				else {
					logger.warn(message);
				}
			}
		}
	}

	/**
	 * Stop and wait until in-flight jobs finished or were released.
	 */
	public void stop() {
		CountDownLatch stopped = new CountDownLatch(1);
		stop(stopped::countDown);
		try {
			stopped.await(this.settings.shutdownTimeout().plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Stop claiming at once and drain in the background: wait up to the shutdown timeout
	 * for in-flight handlers, release the rest, then call back.
	 * @param callback called once the container drained
	 */
	public void stop(Runnable callback) {
		Thread previousPoller;
		JobPoller previous;
		TaskExecutor previousExecutor;
		CompletionBatcher previousCompletions;
		this.lifecycleLock.lock();
		try {
			if (!this.runs.isRunning()) {
				callback.run();
				return;
			}
			this.runs.running(false);
			previousPoller = this.pollerThread;
			previous = this.poller;
			previousExecutor = this.executor;
			previousCompletions = this.completions;
			this.pollerThread = null;
			this.poller = null;
			this.executor = null;
		}
		finally {
			this.lifecycleLock.unlock();
		}
		if (previous != null) {
			previous.abort();
		}
		this.runs.wakePoller();
		Runnable drained = () -> {
			if (previousCompletions != null) {
				previousCompletions.stop();
			}
			this.beacon.leave();
			callback.run();
		};
		Thread drainer = new Thread(
				new ContainerDrain(this.settings, this.runs, previousPoller, previousExecutor, drained),
				"echomq-stop-" + getQueue());
		drainer.setDaemon(true);
		drainer.start();
	}

	/**
	 * Claim up to {@code max} jobs now and run them one after the other on the calling
	 * thread, as the container's workers run a claimed job: through the invocation
	 * interceptors, the lease renewed and the timeout kept while the handler runs, and
	 * the outcome recorded with the job's fencing token (complete on return; retry with
	 * the backoff, or dead-letter once the attempts are used up, on a throw). The
	 * container need not be started; its counters and event listeners see these jobs as
	 * their own. This is what a test's drain calls.
	 * @param max the most jobs to claim, positive
	 * @return how many jobs ran (none when nothing was pending, the queue is paused or
	 * its flow limits held the claim back)
	 */
	public int runNow(int max) {
		Assert.isTrue(max > 0, () -> "max must be positive, was " + max);
		Runs callerRuns = new Runs(max);
		callerRuns.running(true);
		ContainerClaims callerClaims = new ContainerClaims(this.partitions, this.jobs, this.settings, this.node,
				callerRuns, this.counters, this.events);
		try {
			Workers workers = new Workers(this.settings, this.handler, this.interceptors, callerRuns, callerClaims,
					this.leaseKeeper, this.events, new SyncTaskExecutor(), null, this.encryption);
			List<LeasedJob> leased = callerClaims.lease(callerClaims.claim(max).jobs());
			leased.forEach(workers::dispatch);
			return leased.size();
		}
		finally {
			callerClaims.close();
		}
	}

	/**
	 * Return whether the container is claiming (or paused, but started).
	 * @return whether it runs
	 */
	public boolean isRunning() {
		return this.runs.isRunning();
	}

	/**
	 * Stop claiming new jobs; running handlers go on, and jobs claimed ahead that no
	 * handler started yet are handed back to pending.
	 */
	public void pause() {
		this.runs.paused(true);
		Workers.releaseWaiting(this.runs);
		this.beacon.beatSoon();
	}

	/**
	 * Claim again after {@link #pause()}.
	 */
	public void resume() {
		this.runs.paused(false);
		this.beacon.beatSoon();
		this.runs.wakePoller();
	}

	/**
	 * Return whether the container is paused.
	 * @return whether it is paused
	 */
	public boolean isPaused() {
		return this.runs.isPaused();
	}

	/**
	 * Return how many jobs are claimed and not yet settled.
	 * @return the in-flight count
	 */
	public int inFlight() {
		return this.runs.inFlight();
	}

	/**
	 * Return how many handlers the container runs at once now: the concurrency stored at
	 * run time ({@link io.echomq.EchoMqAdmin#setConcurrency}), else the configured one.
	 * @return the concurrency
	 * @since 0.5.0
	 */
	public int getConcurrency() {
		return this.runs.concurrency();
	}

	/**
	 * Return whether the poller thread is alive.
	 * @return {@code true} while the poller runs
	 */
	public boolean isPollerAlive() {
		Thread thread = this.pollerThread;
		return thread != null && thread.isAlive();
	}

	/**
	 * Return how many claim or wake-up attempts in a row failed (0 when healthy).
	 * @return the consecutive failures
	 */
	public int getConsecutiveFailures() {
		JobPoller current = this.poller;
		return (current != null) ? current.consecutiveFailures() : 0;
	}

	/**
	 * Return the effective settings.
	 * @return the settings
	 */
	public ContainerSettings getSettings() {
		return this.settings;
	}

	/**
	 * Return the queue.
	 * @return the queue
	 */
	public String getQueue() {
		return this.settings.queue();
	}

	/**
	 * Return the listener id.
	 * @return the id
	 */
	public String getId() {
		return this.settings.id();
	}

	/**
	 * Return the handler.
	 * @return the handler
	 */
	public JobHandler getHandler() {
		return this.handler;
	}

	/**
	 * Return how many jobs completed.
	 * @return the count
	 */
	public long getCompletedCount() {
		return this.counters.completed.sum();
	}

	/**
	 * Return how many failed attempts were scheduled for retry.
	 * @return the count
	 */
	public long getRetriedCount() {
		return this.counters.retried.sum();
	}

	/**
	 * Return how many jobs were dead-lettered by this container.
	 * @return the count
	 */
	public long getDeadCount() {
		return this.counters.dead.sum();
	}

	/**
	 * Return how many jobs their handler snoozed.
	 * @return the count
	 */
	public long getSnoozedCount() {
		return this.counters.snoozed.sum();
	}

	/**
	 * Return how many jobs were cancelled while running here, their outcome discarded.
	 * @return the count
	 */
	public long getCancelledCount() {
		return this.counters.cancelled.sum();
	}

	/**
	 * Return how many jobs lost their lease while running here.
	 * @return the count
	 */
	public long getStaleCount() {
		return this.counters.stale.sum();
	}

	/**
	 * Return how many unfinished jobs were released to pending on stop.
	 * @return the count
	 */
	public long getReleasedCount() {
		return this.counters.released.sum();
	}

	/**
	 * Return how many outcomes could not be written (Redis unreachable) and were left to
	 * lease expiry.
	 * @return the count
	 */
	public long getUnrecordedCount() {
		return this.counters.unrecorded.sum();
	}

	@Override
	public String toString() {
		return "QueueListenerContainer[id=" + getId() + ", queue=" + getQueue() + ", handler=" + this.handler + "]";
	}

	/**
	 * Return the ledger of slots and runs (for tests).
	 */
	Runs runs() {
		return this.runs;
	}

	/**
	 * Return the claim path (for tests).
	 */
	ContainerClaims claims() {
		return this.claims;
	}

	/**
	 * Return the engine queue names of the queue's partitions (one: the queue itself,
	 * unless it is partitioned).
	 * @return the partition names
	 */
	public List<String> getPartitions() {
		return this.claims.names();
	}

	/**
	 * Return the node this container claims for: the name its claims write to the rows
	 * and its queue's node registry holds it under.
	 * @return the node
	 */
	public EchoMqNode getNode() {
		return this.node;
	}

}
