package io.echomq.listener;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import io.echomq.core.ClaimResult;
import io.echomq.core.ClaimedJob;
import io.echomq.core.EchoMqNode;
import io.echomq.core.JobId;
import io.echomq.core.KeyType;
import io.echomq.core.QueueNodes;
import io.echomq.core.QueuePartitions;
import io.echomq.core.QueueSignals;
import io.echomq.core.internal.Engine;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.util.Assert;

/**
 * Consumes one queue: a {@link JobPoller} thread claims jobs up to the concurrency, a
 * per-run executor runs their handler, and a {@link LeaseKeeper} renews their leases
 * while they run.
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

	private final List<JobInvocationInterceptor> interceptors;

	private final Engine jobs;

	private final JobExecutorFactory executorFactory;

	private final LeaseKeeper leaseKeeper;

	private final JobEvents events;

	private final ReentrantLock lifecycleLock = new ReentrantLock();

	/**
	 * Jobs holding a slot, by run: a job whose lease lapsed while its handler still ran
	 * can be claimed again here, and then both runs hold a slot until they settle.
	 */
	private final Set<LeasedJob> inFlight = ConcurrentHashMap.newKeySet();

	/**
	 * The latest run of each job this container claimed whose outcome is not recorded
	 * yet: claiming a job again tells its earlier run ({@link LeasedJob#claimedAgain}).
	 */
	private final Map<JobId, LeasedJob> runs = new ConcurrentHashMap<>();

	private final Semaphore slots;

	private final Signal pollerSignal = new Signal();

	private final Signal drainSignal = new Signal();

	private final ListenerCounters counters = new ListenerCounters();

	private final PartitionClaims claims;

	private final EchoMqNode node;

	private final ListenerBeacon beacon;

	private volatile boolean running;

	private volatile int pollerWants = 1;

	private volatile boolean paused;

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
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(node, "'node' must not be null");
		Assert.isTrue(partitions.queue().equals(settings.queue()),
				() -> "partitions of '" + partitions.queue() + "' for queue '" + settings.queue() + "'");
		this.claims = new PartitionClaims(partitions);
		Assert.notNull(handler, "'handler' must not be null");
		this.settings = settings;
		this.handler = handler;
		this.interceptors = List.copyOf(interceptors);
		this.jobs = jobs;
		this.executorFactory = executorFactory;
		this.leaseKeeper = leaseKeeper;
		this.events = events;
		this.slots = new Semaphore(settings.concurrency());
		this.node = node;
		this.beacon = new ListenerBeacon(this, new QueueNodes(jobs), node);
	}

	/**
	 * Start claiming. Does nothing if already running.
	 */
	public void start() {
		this.lifecycleLock.lock();
		try {
			if (this.running) {
				return;
			}
			String queue = this.settings.queue();
			this.executor = this.executorFactory.createExecutor(queue, this.settings.concurrency());
			Map<String, String> partitionsByWakeKey = new LinkedHashMap<>();
			this.claims.names()
				.forEach((partition) -> partitionsByWakeKey.put(this.jobs.keyspace().queueKey(partition, KeyType.WAKE),
						partition));
			WakeChannel wake = WakeChannel.create(this.jobs.executor().getTemplate().getRequiredConnectionFactory(),
					List.copyOf(partitionsByWakeKey.keySet()));
			QueueSignals signals = this.jobs.signals();
			wake.onScheduleToken((wakeKey) -> {
				String partition = partitionsByWakeKey.get(wakeKey);
				if (partition != null) {
					signals.scheduleChanged(partition);
				}
			});
			JobPoller created = new JobPoller(this, wake);
			this.poller = created;
			CompletionBatcher batcher = new CompletionBatcher(this);
			batcher.start("echomq-acks-" + queue + "-");
			this.completions = batcher;
			this.running = true;
			Thread thread = new Thread(created, "echomq-poller-" + queue);
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
			if (!this.running) {
				callback.run();
				return;
			}
			this.running = false;
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
		this.pollerSignal.raise();
		Runnable drained = () -> {
			if (previousCompletions != null) {
				previousCompletions.stop();
			}
			this.beacon.leave();
			callback.run();
		};
		Thread drainer = new Thread(new ContainerDrain(this, previousPoller, previousExecutor, drained),
				"echomq-stop-" + getQueue());
		drainer.setDaemon(true);
		drainer.start();
	}

	/**
	 * Return whether the container is claiming (or paused, but started).
	 * @return whether it runs
	 */
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Stop claiming new jobs; in-flight jobs go on.
	 */
	public void pause() {
		this.paused = true;
		this.beacon.beatSoon();
	}

	/**
	 * Claim again after {@link #pause()}.
	 */
	public void resume() {
		this.paused = false;
		this.beacon.beatSoon();
		this.pollerSignal.raise();
	}

	/**
	 * Return whether the container is paused.
	 * @return whether it is paused
	 */
	public boolean isPaused() {
		return this.paused;
	}

	/**
	 * Return how many jobs are claimed and not yet settled.
	 * @return the in-flight count
	 */
	public int inFlight() {
		return this.inFlight.size();
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

	void invokeHandler(ClaimedJob job, JobContext context) throws Exception {
		invoke(0, job, context);
	}

	private void invoke(int index, ClaimedJob job, JobContext context) throws Exception {
		if (index == this.interceptors.size()) {
			this.handler.handle(job, context);
			return;
		}
		this.interceptors.get(index).intercept(job, this.settings, () -> invoke(index + 1, job, context));
	}

	/**
	 * Take charge of a job a claim returned: from here on its token is used only through
	 * the returned {@link LeasedJob}.
	 */
	LeasedJob lease(ClaimedJob claimed) {
		LeasedJob run = new LeasedJob(claimed, this.jobs, this.settings, this.counters, this.events);
		LeasedJob earlier = this.runs.put(claimed.id(), run);
		if (earlier != null) {
			earlier.claimedAgain();
		}
		return run;
	}

	/**
	 * Forget a run whose outcome is recorded, or that was handed back unrun.
	 */
	void forget(LeasedJob job) {
		this.runs.remove(job.id(), job);
	}

	void dispatch(LeasedJob job) {
		TaskExecutor current = this.executor;
		if (!this.running || current == null) {
			job.release();
			forget(job);
			this.slots.release();
			return;
		}
		this.inFlight.add(job);
		try {
			this.leaseKeeper.watch(job);
			current.execute(new JobExecution(this, job));
		}
		catch (RuntimeException ex) {
			logger.warn(ex, () -> "Cannot run " + job + "; releasing it");
			job.release();
			finished(job);
		}
	}

	void finished(LeasedJob job) {
		forget(job);
		giveBackSlot(job);
	}

	/**
	 * Free a job's slot before its outcome is recorded (its completion is still being
	 * sent); {@link #finished} follows once it is.
	 */
	void giveBackSlot(LeasedJob job) {
		if (this.inFlight.remove(job)) {
			this.slots.release();
		}
		if (this.slots.availablePermits() >= this.pollerWants) {
			this.pollerSignal.raise();
		}
		this.drainSignal.raise();
	}

	/**
	 * Pass a settled job's slot on to a job claimed with its completion, rather than free
	 * it: the slot stays taken and the poller is not woken for it.
	 * @return whether the job held a slot to pass on
	 */
	boolean handOver(LeasedJob job) {
		if (!this.inFlight.remove(job)) {
			return false;
		}
		forget(job);
		this.drainSignal.raise();
		return true;
	}

	/**
	 * Return how many jobs the completions of {@code settled} jobs may claim for the
	 * slots they free, in their own round trip: all of them while the container runs and
	 * is not paused, on a queue of one partition (the claims of a partitioned queue go
	 * through its poller, which spreads them and copes with a partition that is down).
	 */
	int claimsWithCompletions(int settled) {
		return (this.running && !this.paused && this.claims.names().size() == 1) ? settled : 0;
	}

	/**
	 * Wake the poller only once this many slots are free (a lingering poller waits for
	 * several; waking it for each costs a thread switch per job); 1 otherwise.
	 */
	void pollerWants(int slots) {
		this.pollerWants = Math.max(1, slots);
	}

	Map<JobId, LeasedJob> latestRuns() {
		return this.runs;
	}

	Set<LeasedJob> inFlightJobs() {
		return this.inFlight;
	}

	@Nullable CompletionBatcher completions() {
		return this.completions;
	}

	Signal drainSignal() {
		return this.drainSignal;
	}

	Semaphore slots() {
		return this.slots;
	}

	Signal pollerSignal() {
		return this.pollerSignal;
	}

	Engine jobs() {
		return this.jobs;
	}

	/**
	 * Claim up to {@code max} jobs across the partitions of the queue (poller thread).
	 */
	ClaimResult claim(int max) {
		return this.claims.claim(this.jobs, this.settings.lease(), max, this.settings.limits(), this.node);
	}

	/**
	 * Return whether a partition's claim is still out or a partition is down (poller
	 * thread).
	 */
	boolean claimsRecovering() {
		return this.claims.isRecovering();
	}

	/**
	 * Stop the partition claim threads (poller thread, as it ends).
	 */
	void closeClaims() {
		this.claims.close();
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

	ListenerBeacon beacon() {
		return this.beacon;
	}

	JobEvents events() {
		return this.events;
	}

}
