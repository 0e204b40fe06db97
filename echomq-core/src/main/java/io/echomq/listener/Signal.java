package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A local wake-up flag: {@link #raise()} is remembered until the next
 * {@link #await(Duration)} consumes it, so a signal raised before the wait is not lost.
 *
 * @author EchoMQ
 */
final class Signal {

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition raisedCondition = this.lock.newCondition();

	private volatile boolean raised;

	/** Threads in {@link #await(Duration)}, changed under the lock. */
	private volatile int waiters;

	/**
	 * Raise the signal. Without a waiter this is one volatile write and read, no lock:
	 * every job that finishes raises its container's signals.
	 */
	void raise() {
		// raised is written before waiters is read, and await does the reverse: one of
		// the two sees the other
		this.raised = true;
		if (this.waiters == 0) {
			return;
		}
		this.lock.lock();
		try {
			this.raisedCondition.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Wait until the signal is raised or the timeout passes, and clear it.
	 * @param timeout the longest wait
	 * @return whether it was raised
	 */
	boolean await(Duration timeout) {
		this.lock.lock();
		this.waiters++;
		try {
			long nanos = timeout.toNanos();
			while (!this.raised && nanos > 0) {
				nanos = this.raisedCondition.awaitNanos(nanos);
			}
			boolean result = this.raised;
			this.raised = false;
			return result;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return this.raised;
		}
		finally {
			this.waiters--;
			this.lock.unlock();
		}
	}

	static void pause(Duration duration) {
		try {
			TimeUnit.NANOSECONDS.sleep(duration.toNanos());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
