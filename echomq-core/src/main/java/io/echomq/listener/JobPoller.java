package io.echomq.listener;

import java.time.Duration;
import java.util.List;

import io.echomq.core.internal.ClaimResult;
import io.echomq.support.internal.RateLimitedLog;

import org.springframework.core.log.LogAccessor;

/**
 * The claim loop of one container, on a platform thread of its own. It takes the free
 * slots from the container's {@link Runs}, claims as many jobs through its
 * {@link ContainerClaims} and hands them to its {@link Workers}. When a claim comes back
 * short the queue is drained, so it blocks on the queue's wake list (the enqueue,
 * promote, reap, retry and release scripts push a token there) for at most the idle wait,
 * then claims again. When every slot is busy it waits for a local signal that a slot
 * freed, never on Redis. Each turn of the loop also reports the container to its queue's
 * node registry when the last report is due ({@link ListenerBeacon}).
 * <p>
 * A failure (Redis unreachable, a timeout) is logged at a limited rate; the wake
 * connection is dropped and the loop waits 100 ms, doubling to 5 s, before it tries
 * again. Nothing else ends the loop but a stop and an {@link Error} (out of memory, a
 * class that cannot be linked), which is not retried: it is logged, the poller ends, and
 * the container reports it ({@code pollerAlive} false, health {@code DOWN}) until it is
 * restarted, as a Spring Kafka container stops on an error.
 *
 * @author EchoMQ
 */
final class JobPoller implements Runnable {

	private static final LogAccessor logger = new LogAccessor(JobPoller.class);

	static final Duration MIN_BACKOFF = Duration.ofMillis(100);

	static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

	private final ContainerSettings settings;

	private final Runs runs;

	private final ContainerClaims claims;

	private final Workers workers;

	private final ListenerBeacon beacon;

	private final WakeChannel wake;

	private final ConcurrencyWatch concurrency;

	private final Signal stopSignal = new Signal();

	private final RateLimitedLog failures = RateLimitedLog.growing(logger, Duration.ofSeconds(10));

	/**
	 * Longest a busy poller waits for more free slots, so that one claim serves several
	 * jobs.
	 */
	static final Duration LINGER = Duration.ofMillis(2);

	private volatile int consecutiveFailures;

	private boolean busy;

	JobPoller(ContainerSettings settings, Runs runs, ContainerClaims claims, Workers workers, ListenerBeacon beacon,
			WakeChannel wake, ConcurrencyWatch concurrency) {
		this.settings = settings;
		this.runs = runs;
		this.claims = claims;
		this.workers = workers;
		this.beacon = beacon;
		this.wake = wake;
		this.concurrency = concurrency;
	}

	@Override
	public void run() {
		Duration backoff = MIN_BACKOFF;
		try {
			while (this.runs.isRunning()) {
				try {
					if (this.concurrency.checkIfDue()) {
						this.beacon.beatSoon();
					}
					this.beacon.beatIfDue();
					poll();
					if (this.consecutiveFailures > 0) {
						logger.info(() -> "Listener for queue '" + this.settings.queue() + "' reconnected after "
								+ this.consecutiveFailures + " failed attempts");
						this.consecutiveFailures = 0;
						this.failures.reset();
					}
					backoff = MIN_BACKOFF;
				}
				catch (Error ex) {
					logger.error(ex, () -> "Listener for queue '" + this.settings.queue()
							+ "' stopped claiming: its poller failed with an error; restart the container");
					return;
				}
				catch (Exception ex) {
					if (!this.runs.isRunning()) {
						break;
					}
					this.consecutiveFailures++;
					Duration wait = backoff;
					this.failures.warn(ex, () -> "Listener for queue '" + this.settings.queue()
							+ "' cannot reach Redis; trying again in " + wait.toMillis() + " ms");
					this.wake.close();
					this.stopSignal.await(backoff);
					backoff = backoff.multipliedBy(2);
					if (backoff.compareTo(MAX_BACKOFF) > 0) {
						backoff = MAX_BACKOFF;
					}
				}
			}
		}
		finally {
			this.wake.close();
			this.claims.close();
			logger.debug(() -> "Poller for queue '" + this.settings.queue() + "' stopped");
		}
	}

	private void poll() {
		ContainerSettings settings = this.settings;
		if (this.runs.isPaused()) {
			this.runs.awaitPollerSignal(settings.idleWait());
			return;
		}
		int free = this.runs.takeFreeSlots();
		if (free == 0) {
			this.runs.awaitPollerSignal(settings.idleWait());
			return;
		}
		free += linger(settings, free);
		ClaimResult result;
		List<LeasedJob> leased;
		try {
			result = this.claims.claim(free);
			this.busy = result.jobs().size() == free;
			leased = this.claims.lease(result.jobs());
		}
		catch (Throwable ex) {
			this.runs.returnSlots(free);
			throw ex;
		}
		// the slots of jobs not claimed, or handed back as the container was paused
		this.runs.returnSlots(free - leased.size());
		for (LeasedJob job : leased) {
			this.workers.dispatch(job);
		}
		int claimed = result.jobs().size();
		if (claimed < free && this.runs.isRunning() && !this.runs.isPaused()) {
			Duration idleWait = idleWait(settings);
			// a partition's claim is still out, or a partition is down: claim again soon
			awaitWork(result, this.claims.recoveryWait(idleWait));
		}
	}

	/**
	 * The idle wait, or less while the queue is paused cluster-wide for a shorter time: a
	 * timed pause ends with no wake-up, so the poller claims again when it ends; or less
	 * when a read of the stored concurrency is due sooner ({@link ConcurrencyWatch}).
	 */
	private Duration idleWait(ContainerSettings settings) {
		Duration pause = this.claims.lastClaimPause();
		Duration wait = this.concurrency.capIdleWait(settings.idleWait());
		return (pause != null && !pause.isZero() && pause.compareTo(wait) < 0) ? pause : wait;
	}

	/**
	 * Wait after a short claim. A rate limit says when its window has room, so the loop
	 * sleeps until then (a stop ends it early); wake-ups are no use, the window decides.
	 * A drained queue, or one held back by a cap, waits for a wake-up: enqueues and
	 * promotions push one, and while a cap holds claims back so do the completions and
	 * retries that free a slot.
	 */
	private void awaitWork(ClaimResult result, Duration idleWait) {
		Duration retryAfter = result.retryAfter();
		if (retryAfter != null) {
			this.stopSignal.await((retryAfter.compareTo(idleWait) < 0) ? retryAfter : idleWait);
			return;
		}
		this.wake.await(idleWait);
	}

	/**
	 * While the queue is known to hold more jobs (the last claim came back full), wait up
	 * to {@link #LINGER} for half the slots to be free before claiming: without it a busy
	 * container claims one job per freed slot, one script call each. An idle container
	 * never lingers, so the first job after a quiet spell is claimed at once.
	 */
	private int linger(ContainerSettings settings, int free) {
		int wanted = Math.max(1, this.runs.capacity() / 2);
		if (!this.busy || free >= wanted) {
			return 0;
		}
		int more = 0;
		long deadline = System.nanoTime() + LINGER.toNanos();
		long left = LINGER.toNanos();
		try {
			while (free + more < wanted && left > 0 && this.runs.isRunning()) {
				this.runs.pollerWants(wanted - free - more);
				this.runs.awaitPollerSignal(Duration.ofNanos(left));
				more += this.runs.takeFreeSlots();
				left = deadline - System.nanoTime();
			}
		}
		finally {
			this.runs.pollerWants(1);
		}
		return more;
	}

	/**
	 * Make the loop notice a stop soon: end a blocked wake-up wait or error backoff.
	 */
	void abort() {
		this.stopSignal.raise();
		this.wake.abort();
	}

	int consecutiveFailures() {
		return this.consecutiveFailures;
	}

}
