package io.echomq.listener;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * The ledger of one container: its slots, the runs that hold them, the latest run of each
 * job, whether it runs or is paused, and the signals that wake its poller and its drain.
 * The poller, the workers, the completion batcher and the drain are given this ledger; it
 * calls none of them, so no class of the listener calls back into the one that called it.
 * <p>
 * A slot is taken by the poller ({@link #takeFreeSlots()}) before it claims, held by a
 * run from {@link #hold} until {@link #finished} (or passed on by {@link #handOver}), and
 * returned unused with {@link #returnSlots}.
 *
 * @author EchoMQ
 */
final class Runs {

	private volatile int capacity;

	private volatile int concurrency;

	private final Semaphore slots;

	/**
	 * Slots a smaller concurrency took away that were not free yet: each is swallowed
	 * when it is given back ({@link #takeFreeSlots}).
	 */
	private final AtomicInteger owed = new AtomicInteger();

	/**
	 * Runs that hold a slot and wait for a worker: jobs claimed ahead of the handlers.
	 */
	private final Queue<LeasedJob> waiting = new ConcurrentLinkedQueue<>();

	/**
	 * Jobs holding a slot, by run: a job whose lease lapsed while its handler still ran
	 * can be claimed again here, and then both runs hold a slot until they settle.
	 */
	private final Set<LeasedJob> inFlight = ConcurrentHashMap.newKeySet();

	/**
	 * The latest run of each job this container claimed whose outcome is not recorded
	 * yet: claiming a job again tells its earlier run ({@link LeasedJob#claimedAgain}).
	 */
	private final Map<JobId, LeasedJob> latest = new ConcurrentHashMap<>();

	private final Signal pollerSignal = new Signal();

	private final Signal drainSignal = new Signal();

	private volatile int pollerWants = 1;

	private volatile boolean running;

	private volatile boolean paused;

	/**
	 * Create a ledger.
	 * @param capacity the slots: how many jobs may be claimed and not yet settled
	 */
	Runs(int capacity) {
		this(capacity, capacity);
	}

	/**
	 * Create a ledger.
	 * @param capacity the slots: how many jobs may be claimed and not yet settled
	 * @param concurrency how many of them run at once
	 */
	Runs(int capacity, int concurrency) {
		this.capacity = capacity;
		this.concurrency = concurrency;
		this.slots = new Semaphore(capacity);
	}

	/**
	 * Return how many slots there are in all.
	 * @return the capacity
	 */
	int capacity() {
		return this.capacity;
	}

	/**
	 * Return how many jobs run at once.
	 * @return the concurrency
	 */
	int concurrency() {
		return this.concurrency;
	}

	/**
	 * Change how many jobs run at once, and the slots with it (as many more or fewer).
	 * Fewer slots are taken away as they come free: running jobs are never stopped.
	 * @param concurrency the new concurrency, at least 1
	 * @return whether it changed
	 */
	synchronized boolean resize(int concurrency) {
		int delta = concurrency - this.concurrency;
		if (delta == 0) {
			return false;
		}
		this.concurrency = concurrency;
		this.capacity += delta;
		if (delta > 0) {
			int repaid = Math.min(delta, this.owed.get());
			this.owed.addAndGet(-repaid);
			this.slots.release(delta - repaid);
			this.pollerSignal.raise();
		}
		else {
			this.owed.addAndGet(-delta);
		}
		return true;
	}

	boolean isRunning() {
		return this.running;
	}

	void running(boolean running) {
		this.running = running;
	}

	boolean isPaused() {
		return this.paused;
	}

	void paused(boolean paused) {
		this.paused = paused;
	}

	/**
	 * Take every free slot (poller thread).
	 * @return how many were taken
	 */
	int takeFreeSlots() {
		int free = this.slots.drainPermits();
		while (free > 0) {
			int owed = this.owed.get();
			if (owed <= 0) {
				return free;
			}
			int swallowed = Math.min(owed, free);
			if (this.owed.compareAndSet(owed, owed - swallowed)) {
				return free - swallowed;
			}
		}
		return free;
	}

	/**
	 * Give back slots taken and not used by a run.
	 * @param count how many
	 */
	void returnSlots(int count) {
		if (count > 0) {
			this.slots.release(count);
		}
	}

	/**
	 * Note a job a claim returned: from here on it is the latest run of its job, and an
	 * earlier run of the same job is told it was claimed again.
	 * @param run the run
	 */
	void track(LeasedJob run) {
		LeasedJob earlier = this.latest.put(run.id(), run);
		if (earlier != null) {
			earlier.claimedAgain();
		}
	}

	/**
	 * Forget a run whose outcome is recorded, or that was handed back unrun.
	 * @param run the run
	 */
	void forget(LeasedJob run) {
		this.latest.remove(run.id(), run);
	}

	/**
	 * Let a run hold the slot taken for it until it {@link #finished}.
	 * @param run the run
	 */
	void hold(LeasedJob run) {
		this.inFlight.add(run);
	}

	/**
	 * Let a run that holds its slot wait for a worker.
	 * @param run the run
	 */
	void await(LeasedJob run) {
		this.waiting.add(run);
	}

	/**
	 * Take the run that waited longest for a worker.
	 * @return the run, or {@code null} when none waits
	 */
	@Nullable LeasedJob nextWaiting() {
		return this.waiting.poll();
	}

	/**
	 * Return whether a run waits for a worker.
	 * @return whether one waits
	 */
	boolean hasWaiting() {
		return !this.waiting.isEmpty();
	}

	/**
	 * Forget a run that was handed back unrun, and give back the slot taken for it (or
	 * passed on to it by {@link #handOver}).
	 * @param run the run
	 */
	void unrun(LeasedJob run) {
		forget(run);
		this.inFlight.remove(run);
		this.slots.release();
		this.drainSignal.raise();
	}

	/**
	 * A run's outcome is recorded (or was given up): forget it and free its slot.
	 * @param run the run
	 */
	void finished(LeasedJob run) {
		forget(run);
		giveBackSlot(run);
	}

	/**
	 * Free a run's slot before its outcome is recorded (its completion is still being
	 * sent); {@link #finished} follows once it is.
	 * @param run the run
	 */
	void giveBackSlot(LeasedJob run) {
		if (this.inFlight.remove(run)) {
			this.slots.release();
		}
		if (this.slots.availablePermits() >= this.pollerWants) {
			this.pollerSignal.raise();
		}
		this.drainSignal.raise();
	}

	/**
	 * Pass a settled run's slot on to a job claimed with its completion, rather than free
	 * it: the slot stays taken and the poller is not woken for it. The next job holds the
	 * slot before the settled run lets go of it, so a stop that waits for the runs in
	 * flight never sees none while the next job is on its way.
	 * @param run the settled run
	 * @param next the job claimed with its completion
	 * @return whether the run held a slot to pass on
	 */
	boolean handOver(LeasedJob run, LeasedJob next) {
		if (!this.inFlight.contains(run)) {
			return false;
		}
		this.inFlight.add(next);
		if (!this.inFlight.remove(run)) {
			this.inFlight.remove(next);
			return false;
		}
		forget(run);
		this.drainSignal.raise();
		return true;
	}

	/**
	 * Wake the poller only once this many slots are free (a lingering poller waits for
	 * several; waking it for each costs a thread switch per job); 1 otherwise.
	 * @param slots the free slots the poller waits for
	 */
	void pollerWants(int slots) {
		this.pollerWants = Math.max(1, slots);
	}

	/**
	 * Wait until the poller is woken (a slot freed, a resume, a stop) or the timeout
	 * passes (poller thread).
	 * @param timeout the longest wait
	 */
	void awaitPollerSignal(Duration timeout) {
		this.pollerSignal.await(timeout);
	}

	/**
	 * Wake the poller (a resume, a stop).
	 */
	void wakePoller() {
		this.pollerSignal.raise();
	}

	/**
	 * Wait until a run frees its slot or the timeout passes (drain thread).
	 * @param timeout the longest wait
	 */
	void awaitDrainSignal(Duration timeout) {
		this.drainSignal.await(timeout);
	}

	/**
	 * Return how many runs hold a slot.
	 * @return the in-flight count
	 */
	int inFlight() {
		return this.inFlight.size();
	}

	/**
	 * Return the runs that hold a slot (a live view).
	 * @return the runs
	 */
	Collection<LeasedJob> inFlightRuns() {
		return this.inFlight;
	}

	/**
	 * Return the latest run of each job whose outcome is not recorded yet (a live view).
	 * @return the runs by job
	 */
	Map<JobId, LeasedJob> latest() {
		return this.latest;
	}

}
