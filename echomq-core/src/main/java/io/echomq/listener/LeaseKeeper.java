package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Guard;
import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Renews the leases of running jobs every third of the lease, and times out handlers that
 * run past their timeout, on one scheduler thread shared by all containers of a factory.
 * <p>
 * Renewals are one timer for all watched jobs, not one per job: a sweep runs when the
 * earliest renewal is due, renews every job that is due and sleeps until the next one.
 * Watching and forgetting a job is a set insert and removal (a timer per job cost a heap
 * insert, a removal and a lock on the claim path). Each watched job holds a
 * {@link Renewal} handle, through which it stops its renewals and its timeout without
 * calling the keeper: stopping the handle takes it out of the watched map. The renewal
 * itself is the job's own ({@link LeasedJob#renew()}: a stale reply marks it lost); one
 * that fails (Redis unreachable) is tried again an interval later.
 * <p>
 * The renewals of a partition's jobs go out on a thread of that partition: a killed
 * master's command timeouts then hold up only the renewals of its own partitions, never
 * those of the partitions on live masters (their leases would lapse and their jobs run
 * twice). A partition whose renewals are still out when the next ones fall due skips that
 * round.
 *
 * @author EchoMQ
 */
final class LeaseKeeper implements AutoCloseable {

	private static final LogAccessor logger = new LogAccessor(LeaseKeeper.class);

	private static final long NONE = Long.MAX_VALUE;

	private final Guard guard = new Guard();

	private final RateLimitedLog failures = new RateLimitedLog(logger, Duration.ofSeconds(10));

	private final Map<Renewal, Watched> watched = new ConcurrentHashMap<>();

	private @Nullable ThreadPoolTaskScheduler scheduler;

	/**
	 * When the pending sweep runs ({@link System#nanoTime()}), {@link #NONE} when none is
	 * pending; under the lock.
	 */
	private long sweepAt = NONE;

	/**
	 * {@link #sweepAt} read without the lock: a sweep at or before this time is pending.
	 */
	private volatile long sweepAtHint = NONE;

	private @Nullable ScheduledFuture<?> pending;

	/** Renewals in flight, by partition name; present while its thread is busy. */
	private final Set<String> renewing = ConcurrentHashMap.newKeySet();

	private volatile @Nullable ExecutorService partitionRenewer;

	/**
	 * Renew a job's lease until it stops its {@link Renewal}, from its dispatch on, also
	 * while it waits for a worker. The job holds the handle before the first renewal can
	 * happen.
	 * @param job the job, just dispatched
	 */
	void watch(LeasedJob job) {
		long due = System.nanoTime() + job.renewalIntervalNanos();
		Renewal renewal = new Renewal(this.watched);
		job.renewal(renewal);
		this.watched.put(renewal, new Watched(job, renewal, due));
		if (due < this.sweepAtHint) {
			sweepBy(due);
		}
	}

	/**
	 * Time a watched job's handler out, when it has a timeout, from now: its handler
	 * starts.
	 * @param job the job
	 */
	void time(LeasedJob job) {
		Duration timeout = job.timeout();
		Renewal renewal = job.renewal();
		if (timeout != null && renewal != null) {
			renewal.deadline(scheduler().schedule(job::timeOut, Instant.now().plus(timeout)));
		}
	}

	private void sweepBy(long due) {
		this.guard.run(() -> {
			if (due >= this.sweepAt) {
				return;
			}
			ThreadPoolTaskScheduler current = scheduler();
			if (this.pending != null) {
				this.pending.cancel(false);
			}
			long delay = Math.max(0, due - System.nanoTime());
			this.pending = current.schedule(this::sweep, Instant.now().plusNanos(delay));
			this.sweepAt = due;
			this.sweepAtHint = due;
		});
	}

	private void sweep() {
		this.guard.run(() -> {
			this.pending = null;
			this.sweepAt = NONE;
			this.sweepAtHint = NONE;
		});
		long next = NONE;
		Map<String, List<Watched>> partitioned = new LinkedHashMap<>();
		for (Watched watched : this.watched.values()) {
			LeasedJob job = watched.job;
			if (watched.renewal.isStopped() || !job.isRunning()) {
				this.watched.remove(watched.renewal);
				continue;
			}
			long due = watched.next;
			if (due - System.nanoTime() <= 0) {
				String queue = job.queue();
				if (QueuePartitions.logicalName(queue).equals(queue)) {
					renew(watched);
				}
				else {
					partitioned.computeIfAbsent(queue, (name) -> new ArrayList<>()).add(watched);
				}
				due = System.nanoTime() + job.renewalIntervalNanos();
				watched.next = due;
			}
			if (watched.renewal.isStopped()) {
				this.watched.remove(watched.renewal);
			}
			else {
				next = Math.min(next, due);
			}
		}
		partitioned.forEach(this::renewPartition);
		if (next != NONE) {
			sweepBy(next);
		}
	}

	private void renewPartition(String partition, List<Watched> jobs) {
		if (!this.renewing.add(partition)) {
			return;
		}
		try {
			partitionRenewer().execute(() -> {
				try {
					jobs.forEach(this::renew);
				}
				finally {
					this.renewing.remove(partition);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.renewing.remove(partition);
		}
	}

	private ExecutorService partitionRenewer() {
		return this.guard.get(() -> {
			ExecutorService renewer = this.partitionRenewer;
			if (renewer == null) {
				AtomicInteger count = new AtomicInteger();
				renewer = Executors.newCachedThreadPool((task) -> {
					Thread thread = new Thread(task, "echomq-lease-partition-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
				this.partitionRenewer = renewer;
			}
			return renewer;
		});
	}

	private void renew(Watched watched) {
		if (watched.renewal.isStopped()) {
			return;
		}
		try {
			watched.job.renew();
		}
		catch (Throwable ex) {
			this.failures.warn(ex, () -> "Cannot renew the lease of " + watched.job + "; trying again");
		}
	}

	private ThreadPoolTaskScheduler scheduler() {
		return this.guard.get(() -> {
			if (this.scheduler == null) {
				ThreadPoolTaskScheduler created = new ThreadPoolTaskScheduler();
				created.setPoolSize(1);
				created.setThreadNamePrefix("echomq-lease-");
				created.setDaemon(true);
				created.setRemoveOnCancelPolicy(true);
				created.setWaitForTasksToCompleteOnShutdown(false);
				created.initialize();
				this.scheduler = created;
			}
			return this.scheduler;
		});
	}

	@Override
	public void close() {
		this.guard.run(() -> {
			if (this.scheduler != null) {
				this.scheduler.shutdown();
				this.scheduler = null;
			}
			ExecutorService renewer = this.partitionRenewer;
			if (renewer != null) {
				renewer.shutdown();
				this.partitionRenewer = null;
			}
			this.pending = null;
			this.sweepAt = NONE;
			this.sweepAtHint = NONE;
			this.watched.clear();
		});
	}

	/**
	 * A job the keeper renews, with the handle it holds.
	 */
	private static final class Watched {

		private final LeasedJob job;

		private final Renewal renewal;

		/** When the lease is next renewed ({@link System#nanoTime()}); sweep only. */
		private long next;

		Watched(LeasedJob job, Renewal renewal, long next) {
			this.job = job;
			this.renewal = renewal;
			this.next = next;
		}

	}

}
