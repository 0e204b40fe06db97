package io.echomq.listener;

import java.time.Duration;

import io.echomq.core.internal.QueueAdmin;
import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Applies the listener concurrency an operator stored at run time
 * ({@code emq:{q}:limits}, field {@code concurrency}, of the queue's first partition) to
 * a running container: the poller reads it at a turn of its loop at most every
 * {@link #EVERY}, and a changed value resizes the container's {@link Runs} (its slots and
 * how many workers run) and, when the container made it, its thread pool. Without a
 * stored value the configured concurrency applies. A failed read keeps the concurrency in
 * place and is logged at a limited rate: claims do not depend on it.
 *
 * @author EchoMQ
 */
final class ConcurrencyWatch {

	/** Least time between two reads of the stored concurrency. */
	static final Duration EVERY = Duration.ofSeconds(1);

	private static final LogAccessor logger = new LogAccessor(ConcurrencyWatch.class);

	private final ContainerSettings settings;

	private final Runs runs;

	private final QueueAdmin admin;

	private final String partition;

	private final RateLimitedLog failures = RateLimitedLog.growing(logger, Duration.ofSeconds(60));

	private volatile @Nullable TaskExecutor executor;

	private long next = System.nanoTime();

	private boolean skipped;

	ConcurrencyWatch(ContainerSettings settings, Runs runs, QueueAdmin admin, String partition) {
		this.settings = settings;
		this.runs = runs;
		this.admin = admin;
		this.partition = partition;
	}

	/**
	 * Read the stored concurrency now, before the container makes its executor (the
	 * container's thread): the configured one when none is stored or the server does not
	 * answer.
	 * @return the concurrency to start with
	 */
	int startWith() {
		this.executor = null;
		int stored = read();
		int concurrency = (stored > 0) ? stored : this.settings.concurrency();
		this.runs.resize(concurrency);
		this.next = System.nanoTime() + EVERY.toNanos();
		return concurrency;
	}

	/**
	 * Set the executor the container made for its workers.
	 * @param executor the executor
	 */
	void executor(TaskExecutor executor) {
		this.executor = executor;
	}

	/**
	 * Apply the stored concurrency if the last read is {@link #EVERY} old (poller
	 * thread).
	 * @return whether the concurrency changed
	 */
	boolean checkIfDue() {
		long now = System.nanoTime();
		if (now - this.next < 0) {
			this.skipped = true;
			return false;
		}
		this.skipped = false;
		this.next = now + EVERY.toNanos();
		int stored = read();
		if (stored < 0) {
			return false;
		}
		int concurrency = (stored > 0) ? stored : this.settings.concurrency();
		int before = this.runs.concurrency();
		if (!this.runs.resize(concurrency)) {
			return false;
		}
		resizePool(concurrency, before);
		logger.info(() -> "Listener '" + this.settings.id() + "' of queue '" + this.settings.queue() + "' runs "
				+ concurrency + " handlers at once (was " + before + ")"
				+ ((stored > 0) ? ", as stored at run time" : ", as configured"));
		return true;
	}

	/**
	 * The poller's idle wait, or less when a turn of its loop skipped a read because the
	 * last one was less than {@link #EVERY} ago: a write wakes the poller, and the read
	 * it skipped still comes within about {@link #EVERY} instead of after the idle wait
	 * (poller thread).
	 * @param wait the idle wait
	 * @return the wait until the skipped read is due, if shorter
	 */
	Duration capIdleWait(Duration wait) {
		if (!this.skipped) {
			return wait;
		}
		Duration due = Duration.ofNanos(Math.max(this.next - System.nanoTime(), 1_000_000));
		return (due.compareTo(wait) < 0) ? due : wait;
	}

	private void resizePool(int concurrency, int before) {
		if (this.executor instanceof ThreadPoolTaskExecutor pool) {
			// the core size may never exceed the maximum
			if (concurrency > before) {
				pool.setMaxPoolSize(concurrency);
				pool.setCorePoolSize(concurrency);
			}
			else {
				pool.setCorePoolSize(concurrency);
				pool.setMaxPoolSize(concurrency);
			}
		}
	}

	/**
	 * The stored concurrency, 0 when none is stored, -1 when it cannot be read.
	 */
	private int read() {
		try {
			Integer stored = this.admin.storedConcurrency(this.partition);
			return (stored != null) ? stored : 0;
		}
		catch (RuntimeException ex) {
			if (ex instanceof RedisConnectionFailureException) {
				logger.debug(ex, () -> "Cannot read the stored concurrency of queue '" + this.settings.queue() + "'");
			}
			else {
				this.failures.warn(ex, () -> "Cannot read the stored concurrency of queue '" + this.settings.queue()
						+ "'; keeping " + this.runs.concurrency());
			}
			return -1;
		}
	}

}
