package io.echomq.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.echomq.core.Jobs;
import io.echomq.core.QuarantineResult;
import io.echomq.core.ReapResult;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.JobEvents;
import io.echomq.support.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Runs the reap tick (expired leases back to pending) and the promote tick (due
 * scheduled jobs to pending) with a fixed delay, for every queue that has a listener
 * here and every queue named under {@code echomq.queues}. Each tick moves at most one
 * batch per script call and calls again while a batch came back full. Every node runs
 * the ticks: the scripts are atomic, so two nodes never move one job twice.
 * <p>
 * The reap tick also runs the quarantine sweep: members that this engine's verbs met
 * and could not move (not JOB ids, malformed rows) go to the queue's quarantine
 * location ({@link Jobs#quarantineSuspects(String)}), logged at WARN, and, at most
 * once per {@link #TRIM_INTERVAL} per queue, trims the queue's history (completed and
 * dead jobs) back within its retention bounds ({@link Jobs#trimHistory(String, int)}).
 * <p>
 * A partition of a partitioned queue that a tick found idle is passed over by the next
 * few ticks ({@link IdlePartitions}), so idle partitions do not multiply the idle cost.
 * <p>
 * A tick failure is logged (at a limited rate) and never cancels the schedule. The
 * ticks run on a private scheduler, not a bean, so Boot's {@code taskScheduler} is
 * unaffected.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqScheduler implements SmartLifecycle {

	/** The lifecycle phase: starts before and stops after the listener registry. */
	public static final int DEFAULT_PHASE = EchoJobListenerRegistry.DEFAULT_PHASE - 100;

	/** Most script calls one tick makes per queue. */
	static final int MAX_ROUNDS = 100;

	/** How often the reap tick trims a queue's history. */
	public static final Duration TRIM_INTERVAL = Duration.ofSeconds(10);

	private final Map<String, Long> lastTrim = new ConcurrentHashMap<>();

	private static final LogAccessor logger = new LogAccessor(EchoMqScheduler.class);

	private final Jobs jobs;

	private final SchedulerSettings settings;

	private final Supplier<? extends Collection<String>> queues;

	private final Supplier<ThreadPoolTaskScheduler> schedulerFactory;

	private final JobEvents events;

	private final ReentrantLock lock = new ReentrantLock();

	private final RateLimitedLog reapFailures = new RateLimitedLog(logger, Duration.ofSeconds(30));

	private final RateLimitedLog promoteFailures = new RateLimitedLog(logger, Duration.ofSeconds(30));

	private final AtomicLong reapTicks = new AtomicLong();

	private final AtomicLong promoteTicks = new AtomicLong();

	private final AtomicLong failedTicks = new AtomicLong();

	private final IdlePartitions idleReaps = new IdlePartitions();

	private final IdlePartitions idlePromotes = new IdlePartitions();

	private volatile @Nullable Instant lastReap;

	private volatile @Nullable Instant lastPromote;

	private @Nullable ThreadPoolTaskScheduler scheduler;

	private @Nullable List<ScheduledFuture<?>> ticks;

	/**
	 * Create a scheduler.
	 * @param jobs the engine
	 * @param settings the intervals and batch size
	 * @param queues the queues to tick, asked on every tick
	 * @param schedulerFactory creates the (uninitialized) scheduler each start
	 * @param eventListeners told about what moved
	 */
	public EchoMqScheduler(Jobs jobs, SchedulerSettings settings, Supplier<? extends Collection<String>> queues,
			Supplier<ThreadPoolTaskScheduler> schedulerFactory, List<JobEventListener> eventListeners) {
		Assert.notNull(jobs, "'jobs' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(queues, "'queues' must not be null");
		Assert.notNull(schedulerFactory, "'schedulerFactory' must not be null");
		this.jobs = jobs;
		this.settings = settings;
		this.queues = queues;
		this.schedulerFactory = schedulerFactory;
		this.events = new JobEvents(eventListeners);
	}

	@Override
	public void start() {
		this.lock.lock();
		try {
			if (this.scheduler != null) {
				return;
			}
			ThreadPoolTaskScheduler created = this.schedulerFactory.get();
			created.initialize();
			this.scheduler = created;
			this.ticks = List.of(created.scheduleWithFixedDelay(this::reapTick, this.settings.reapInterval()),
					created.scheduleWithFixedDelay(this::promoteTick, this.settings.promoteInterval()));
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void stop() {
		this.lock.lock();
		try {
			if (this.ticks != null) {
				this.ticks.forEach((tick) -> tick.cancel(false));
				this.ticks = null;
			}
			if (this.scheduler != null) {
				this.scheduler.shutdown();
				this.scheduler = null;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public boolean isRunning() {
		this.lock.lock();
		try {
			return this.scheduler != null;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}

	/**
	 * Run one reap tick over every queue now.
	 */
	public void reapTick() {
		boolean failed = false;
		for (String queue : this.queues.get()) {
			if (this.idleReaps.skip(queue)) {
				continue;
			}
			try {
				int requeued = 0;
				int dead = 0;
				for (int round = 0; round < MAX_ROUNDS; round++) {
					ReapResult result = this.jobs.reap(queue, this.settings.batchSize());
					requeued += result.requeued();
					dead += result.dead();
					if (result.total() < this.settings.batchSize()) {
						break;
					}
				}
				if (requeued + dead > 0) {
					ReapResult total = new ReapResult(requeued, dead);
					logger.debug(() -> "Reaped " + total + " on queue '" + queue + "'");
					this.events.reaped(queue, total);
				}
				this.idleReaps.ticked(queue, requeued + dead > 0);
				QuarantineResult quarantined = this.jobs.quarantineSuspects(queue);
				if (quarantined.quarantined() + quarantined.strays() > 0) {
					logger.warn(() -> "Quarantined " + quarantined.quarantined() + " member(s) of queue '" + queue
							+ "' that no transition could move, removed " + quarantined.strays()
							+ " stray copies; see the queue's audit. " + abbreviate(quarantined.reasons()));
				}
				trimHistory(queue);
			}
			catch (Throwable ex) {
				failed = true;
				this.reapFailures.warn(ex, () -> "Reap tick failed on queue '" + queue + "'");
			}
		}
		tick(failed, this.reapTicks);
		if (!failed) {
			this.lastReap = Instant.now();
		}
	}

	private void trimHistory(String queue) {
		long now = System.nanoTime();
		Long last = this.lastTrim.get(queue);
		if (last != null && now - last < TRIM_INTERVAL.toNanos()) {
			return;
		}
		this.lastTrim.put(queue, now);
		long trimmed = this.jobs.trimHistory(queue, this.settings.batchSize() * MAX_ROUNDS);
		if (trimmed > 0) {
			logger.debug(() -> "Trimmed " + trimmed + " job(s) of queue '" + queue + "' past its retention");
		}
	}

	/**
	 * Run one promote tick over every queue now.
	 */
	public void promoteTick() {
		boolean failed = false;
		for (String queue : this.queues.get()) {
			if (this.idlePromotes.skip(queue)) {
				continue;
			}
			try {
				int promoted = 0;
				for (int round = 0; round < MAX_ROUNDS; round++) {
					int moved = this.jobs.promote(queue, this.settings.batchSize());
					promoted += moved;
					if (moved < this.settings.batchSize()) {
						break;
					}
				}
				this.idlePromotes.ticked(queue, promoted > 0);
				if (promoted > 0) {
					this.events.promoted(queue, promoted);
				}
			}
			catch (Throwable ex) {
				failed = true;
				this.promoteFailures.warn(ex, () -> "Promote tick failed on queue '" + queue + "'");
			}
		}
		tick(failed, this.promoteTicks);
		if (!failed) {
			this.lastPromote = Instant.now();
		}
	}

	private static String abbreviate(Map<String, String> reasons) {
		StringBuilder text = new StringBuilder();
		int shown = 0;
		for (Map.Entry<String, String> entry : reasons.entrySet()) {
			if (shown++ == 10) {
				return text.append(", ...").toString();
			}
			text.append((shown > 1) ? ", " : "").append(entry.getKey()).append(": ").append(entry.getValue());
		}
		return text.toString();
	}

	private void tick(boolean failed, AtomicLong counter) {
		counter.incrementAndGet();
		if (failed) {
			this.failedTicks.incrementAndGet();
		}
	}

	/**
	 * Return when the last reap tick succeeded on every queue.
	 * @return the time, or {@code null} if none did yet
	 */
	public @Nullable Instant getLastReap() {
		return this.lastReap;
	}

	/**
	 * Return when the last promote tick succeeded on every queue.
	 * @return the time, or {@code null} if none did yet
	 */
	public @Nullable Instant getLastPromote() {
		return this.lastPromote;
	}

	/**
	 * Return how many reap ticks ran.
	 * @return the count
	 */
	public long getReapTicks() {
		return this.reapTicks.get();
	}

	/**
	 * Return how many promote ticks ran.
	 * @return the count
	 */
	public long getPromoteTicks() {
		return this.promoteTicks.get();
	}

	/**
	 * Return how many ticks failed on at least one queue.
	 * @return the count
	 */
	public long getFailedTicks() {
		return this.failedTicks.get();
	}

	/**
	 * Return the scheduler settings.
	 * @return the settings
	 */
	public SchedulerSettings getSettings() {
		return this.settings;
	}

}
