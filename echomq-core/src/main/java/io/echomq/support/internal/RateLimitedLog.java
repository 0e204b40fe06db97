package io.echomq.support.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Logs a recurring warning at most once per interval, with a count of the ones it kept
 * back; the stack trace goes to debug. The interval may grow: from {@code first} it
 * doubles after each warning written, up to {@code max}, so that a failure that lasts
 * (Redis unreachable) writes fewer and fewer lines; {@link #reset()} and
 * {@link #recovered(Supplier)} return it to {@code first}.
 *
 * @author EchoMQ
 */
public final class RateLimitedLog {

	/**
	 * The longest interval of a {@linkplain #growing(LogAccessor, Duration) growing} log.
	 */
	public static final Duration LONGEST_GROWN = Duration.ofMinutes(5);

	private final LogAccessor logger;

	private final long firstNanos;

	private final long maxNanos;

	private final LongSupplier clock;

	private final AtomicLong next;

	private final AtomicLong interval;

	private final AtomicLong suppressed = new AtomicLong();

	private final AtomicLong written = new AtomicLong();

	/**
	 * Create a log that writes to {@code logger} at most once per {@code interval}.
	 * @param logger the logger
	 * @param interval the shortest time between two warnings
	 */
	public RateLimitedLog(LogAccessor logger, Duration interval) {
		this(logger, interval, interval);
	}

	/**
	 * Create a log that writes to {@code logger} with a growing interval: {@code first}
	 * after the first warning, doubling after each one written, up to {@code max}.
	 * @param logger the logger
	 * @param first the shortest time between the first two warnings
	 * @param max the longest time between two warnings
	 */
	public RateLimitedLog(LogAccessor logger, Duration first, Duration max) {
		this(logger, first, max, System::nanoTime);
	}

	/**
	 * Create a log with a growing interval, from {@code first} up to
	 * {@link #LONGEST_GROWN}: for a failure that may last (a server out of reach).
	 * @param logger the logger
	 * @param first the shortest time between the first two warnings
	 * @return the log
	 */
	public static RateLimitedLog growing(LogAccessor logger, Duration first) {
		return new RateLimitedLog(logger, first, LONGEST_GROWN);
	}

	RateLimitedLog(LogAccessor logger, Duration first, Duration max, LongSupplier clock) {
		this.logger = logger;
		this.firstNanos = first.toNanos();
		this.maxNanos = Math.max(this.firstNanos, max.toNanos());
		this.clock = clock;
		this.next = new AtomicLong(clock.getAsLong());
		this.interval = new AtomicLong(this.firstNanos);
	}

	/**
	 * Log a warning unless one was logged less than the interval ago.
	 * @param ex the failure, its stack trace logged at debug
	 * @param message the message
	 */
	public void warn(@Nullable Throwable ex, Supplier<String> message) {
		long now = this.clock.getAsLong();
		long due = this.next.get();
		long wait = this.interval.get();
		if (now - due < 0 || !this.next.compareAndSet(due, now + wait)) {
			this.suppressed.incrementAndGet();
			this.logger.debug(ex, message);
			return;
		}
		this.interval.compareAndSet(wait, Math.min(this.maxNanos, wait * 2));
		this.written.incrementAndGet();
		long kept = this.suppressed.getAndSet(0);
		String suffix = ((ex != null) ? ": " + ErrorText.of(ex) : "")
				+ ((kept > 0) ? " (" + kept + " similar messages suppressed)" : "");
		this.logger.warn(() -> message.get() + suffix);
		this.logger.debug(ex, message);
	}

	/**
	 * Say at INFO that the failure ended, if a warning was written since the last reset,
	 * and reset; else do nothing.
	 * @param message the message
	 */
	public void recovered(Supplier<String> message) {
		if (this.written.getAndSet(0) > 0) {
			this.logger.info(message);
			reset();
		}
	}

	/**
	 * Allow the next warning at once, and return the interval to its first length.
	 */
	public void reset() {
		this.next.set(this.clock.getAsLong());
		this.interval.set(this.firstNanos);
		this.suppressed.set(0);
		this.written.set(0);
	}

}
