package io.echomq.listener;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.echomq.core.ReplicationTimeoutException;
import io.echomq.core.ServerOutOfMemoryException;
import io.echomq.core.TransitionResult;
import io.echomq.core.UnsupportedFormatException;
import io.echomq.core.WrongKeyTypeException;
import io.lettuce.core.RedisCommandExecutionException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * Sends the outcome of one run, again and again while Redis cannot be reached, until it
 * is recorded or the job's lease has run out: a failover answers errors for a few seconds
 * (every master of a cluster says {@code CLUSTERDOWN} meanwhile), far less than a lease,
 * and an outcome given up earlier would leave a finished job active for the rest of its
 * lease and then run it again. Past the lease deadline the reaper may have claimed the
 * job again, so the outcome is counted as unrecorded and the job is left to it
 * (at-least-once).
 *
 * @author EchoMQ
 */
final class OutcomeSender {

	private static final LogAccessor logger = new LogAccessor(OutcomeSender.class);

	/** Fewest times an outcome is sent, however short the lease. */
	static final int MIN_ATTEMPTS = 4;

	private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

	private static final Duration MAX_BACKOFF = Duration.ofSeconds(1);

	/**
	 * Longest time a job whose outcome is refused is held by renewing its lease: long
	 * enough for any failover, short enough that an outcome which can never be written is
	 * given up and the job left to the reaper.
	 */
	static final Duration MAX_HOLD = Duration.ofMinutes(5);

	private final ListenerCounters counters;

	OutcomeSender(ListenerCounters counters) {
		this.counters = counters;
	}

	/**
	 * Send an outcome.
	 * @param job the job, for the log
	 * @param what what is sent, for the log
	 * @param transition sends it once
	 * @param tried whether an earlier attempt may have applied (a batched call without a
	 * clear reply)
	 * @param leaseDeadline the {@link System#nanoTime()} at which the job's lease runs
	 * out, as far as this node knows
	 * @param renewAhead how long before the deadline the lease is renewed, in nanoseconds
	 * @param renew renews the lease (moving the deadline): {@code false} when the job is
	 * no longer held here; throws when the server cannot be reached
	 * @return the reply, or {@code null} when it could not be recorded
	 */
	@Nullable Sent send(Object job, String what, Supplier<TransitionResult> transition, boolean tried, LongSupplier leaseDeadline,
			long renewAhead, BooleanSupplier renew) {
		long started = System.nanoTime();
		boolean renewing = true;
		Duration delay = FIRST_BACKOFF;
		for (int attempt = 1;; attempt++) {
			try {
				return new Sent(transition.get(), tried || attempt > 1);
			}
			catch (RuntimeException ex) {
				if (renewing && leaseDeadline.getAsLong() - System.nanoTime() <= renewAhead) {
					renewing = renewed(job, renew, ex, started);
				}
				long left = leaseDeadline.getAsLong() - System.nanoTime();
				if (attempt >= MIN_ATTEMPTS && left <= 0 || Thread.currentThread().isInterrupted()) {
					this.counters.unrecorded.increment();
					int attempts = attempt;
					Duration took = Duration.ofNanos(System.nanoTime() - started);
					logger.warn(ex, () -> "Cannot record the " + what + " of " + job + " after " + attempts
							+ " attempts in " + took.toMillis() + " ms; it runs again once its lease expires");
					return null;
				}
				Duration pause = (left > 0 && attempt >= MIN_ATTEMPTS)
						? Duration.ofNanos(Math.min(delay.toNanos(), left)) : delay;
				Signal.pause(pause);
				delay = (delay.compareTo(MAX_BACKOFF) < 0) ? delay.multipliedBy(2) : MAX_BACKOFF;
			}
		}
	}

	/**
	 * Renew the lease of a job whose outcome was refused, unless the refusal cannot heal
	 * or the job has been held for {@link #MAX_HOLD}.
	 * @return whether to renew again later: {@code false} once the job is no longer held
	 * here (the next send's reply says what became of it) or renewing should stop
	 */
	private boolean renewed(Object job, BooleanSupplier renew, RuntimeException refusal, long started) {
		if (!answered(refusal)) {
			return true;
		}
		if (refusal instanceof WrongKeyTypeException || refusal instanceof UnsupportedFormatException
				|| System.nanoTime() - started > MAX_HOLD.toNanos()) {
			return false;
		}
		try {
			if (renew.getAsBoolean()) {
				return true;
			}
			logger.debug(() -> "No longer holds " + job + " while sending its outcome");
			return false;
		}
		catch (RuntimeException ex) {
			return true;
		}
	}

	/**
	 * Whether the server answered the refused call (an error reply: a renewal may get
	 * through), rather than not being reached at all (a renewal would wait out the same
	 * timeout).
	 */
	private static boolean answered(Throwable refusal) {
		if (refusal instanceof ServerOutOfMemoryException || refusal instanceof ReplicationTimeoutException) {
			return true;
		}
		for (Throwable cause = refusal; cause != null; cause = cause.getCause()) {
			if (cause instanceof RedisCommandExecutionException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * What a sent outcome came to.
	 *
	 * @param result the script's reply
	 * @param resent whether it was sent more than once (an earlier send may have applied)
	 */
	record Sent(TransitionResult result, boolean resent) {

	}

}
