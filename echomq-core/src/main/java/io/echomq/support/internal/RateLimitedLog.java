package io.echomq.support.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Logs a recurring warning at most once per interval, with a count of the ones it kept
 * back; the stack trace goes to debug.
 *
 * @author EchoMQ
 */
public final class RateLimitedLog {

	private final LogAccessor logger;

	private final long intervalNanos;

	private final AtomicLong next = new AtomicLong(System.nanoTime());

	private final AtomicLong suppressed = new AtomicLong();

	/**
	 * Create a log that writes to {@code logger} at most once per {@code interval}.
	 * @param logger the logger
	 * @param interval the shortest time between two warnings
	 */
	public RateLimitedLog(LogAccessor logger, Duration interval) {
		this.logger = logger;
		this.intervalNanos = interval.toNanos();
	}

	/**
	 * Log a warning unless one was logged less than the interval ago.
	 * @param ex the failure, its stack trace logged at debug
	 * @param message the message
	 */
	public void warn(@Nullable Throwable ex, Supplier<String> message) {
		long now = System.nanoTime();
		long due = this.next.get();
		if (now - due < 0 || !this.next.compareAndSet(due, now + this.intervalNanos)) {
			this.suppressed.incrementAndGet();
			this.logger.debug(ex, message);
			return;
		}
		long kept = this.suppressed.getAndSet(0);
		String suffix = ((ex != null) ? ": " + ErrorText.of(ex) : "")
				+ ((kept > 0) ? " (" + kept + " similar messages suppressed)" : "");
		this.logger.warn(() -> message.get() + suffix);
		this.logger.debug(ex, message);
	}

	/**
	 * Allow the next warning at once.
	 */
	public void reset() {
		this.next.set(System.nanoTime());
		this.suppressed.set(0);
	}

}
