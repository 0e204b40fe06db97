package io.echomq.core.internal;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A lock that runs a block while held: the {@code lock(); try { … } finally { unlock();
 * }} of the lifecycle classes (maintenance, schedule ticker, queue metrics, lease keeper)
 * in one place. Reentrant, like the {@link ReentrantLock} it wraps.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class Guard {

	private final ReentrantLock lock = new ReentrantLock();

	/**
	 * Run {@code action} while holding the lock.
	 * @param action what to run
	 */
	public void run(Runnable action) {
		this.lock.lock();
		try {
			action.run();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Run {@code action} while holding the lock and return what it returns.
	 * @param <T> the result type
	 * @param action what to run
	 * @return the action's result
	 */
	public <T extends @Nullable Object> T get(Supplier<T> action) {
		this.lock.lock();
		try {
			return action.get();
		}
		finally {
			this.lock.unlock();
		}
	}

}
