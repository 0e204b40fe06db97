package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;

import io.echomq.core.EchoMqNode;
import io.echomq.inspect.NodeListener;
import io.echomq.inspect.QueueNodes;
import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * Keeps a container's entry in its queue's node registry ({@link QueueNodes}): the poller
 * beats on its own loop, which turns at least every idle wait, so no thread of its own is
 * needed; the container leaves when it stopped. While its figures move (jobs run, the
 * container is paused or resumed) it beats every {@link #BEAT} and says it beats at least
 * every {@link #BEAT} plus the idle wait; once they stopped moving it beats once more,
 * saying it beats at least every {@link #IDLE_BEAT} plus the idle wait, then only that
 * often: an idle queue's registry costs a script call a minute, not one per idle wait. A
 * failed beat is logged at a limited rate and never stops the poller: the registry is for
 * people, claims do not depend on it.
 *
 * @author EchoMQ
 */
final class ListenerBeacon {

	/** Least time between two beats of a container whose figures move. */
	static final Duration BEAT = Duration.ofSeconds(5);

	/** Time between two beats of a container whose figures do not move. */
	static final Duration IDLE_BEAT = Duration.ofSeconds(60);

	private static final LogAccessor logger = new LogAccessor(ListenerBeacon.class);

	private final ContainerSettings settings;

	private final Runs runs;

	private final ListenerCounters counters;

	private final QueueNodes nodes;

	private final EchoMqNode node;

	private final Duration every;

	private final Duration idleEvery;

	private final RateLimitedLog failures = RateLimitedLog.growing(logger, Duration.ofSeconds(60));

	private long nextBeat;

	private long lastBeat;

	private @Nullable NodeListener last;

	private volatile boolean due = true;

	ListenerBeacon(ContainerSettings settings, Runs runs, ListenerCounters counters, QueueNodes nodes,
			EchoMqNode node) {
		this.settings = settings;
		this.runs = runs;
		this.counters = counters;
		this.nodes = nodes;
		this.node = node;
		// a beat is late by at most one turn of the healthy poller loop: one idle wait
		this.every = BEAT.plus(settings.idleWait());
		this.idleEvery = IDLE_BEAT.plus(settings.idleWait());
	}

	/**
	 * Beat if the last one is {@link #BEAT} old and the figures moved since, or once they
	 * stopped moving, or {@link #IDLE_BEAT} after the last (poller thread).
	 */
	void beatIfDue() {
		long now = System.nanoTime();
		if (!this.due && now - this.nextBeat < 0) {
			return;
		}
		NodeListener previous = this.last;
		NodeListener moving = summary(this.every);
		boolean still = previous != null && sameFigures(previous, moving);
		if (!this.due && still && previous.every().equals(this.idleEvery)
				&& now - this.lastBeat < IDLE_BEAT.toNanos()) {
			this.nextBeat = now + BEAT.toNanos();
			return;
		}
		NodeListener summary = still ? summary(this.idleEvery) : moving;
		this.due = false;
		this.nextBeat = now + BEAT.toNanos();
		this.lastBeat = now;
		this.last = summary;
		try {
			this.nodes.beat(this.settings.queue(), summary);
		}
		catch (RuntimeException ex) {
			// not written: the next beat is a full one, whether the figures moved or not
			this.last = null;
			if (ex instanceof RedisConnectionFailureException) {
				// the poller that beats says that the server is unreachable
				logger.debug(ex, () -> "Cannot register the listener of queue '" + this.settings.queue() + "'");
				return;
			}
			this.failures.warn(ex, () -> "Cannot register the listener of queue '" + this.settings.queue()
					+ "' in its node registry; trying again in " + BEAT.toSeconds() + " s");
		}
	}

	private static boolean sameFigures(NodeListener a, NodeListener b) {
		return a.paused() == b.paused() && a.inFlight() == b.inFlight() && a.completed() == b.completed()
				&& a.retried() == b.retried() && a.dead() == b.dead() && a.stale() == b.stale()
				&& a.concurrency() == b.concurrency();
	}

	/**
	 * Beat at the next turn of the loop (the listener was paused or resumed).
	 */
	void beatSoon() {
		this.due = true;
	}

	/**
	 * Remove the container's entry (after its poller stopped).
	 */
	void leave() {
		this.due = true;
		try {
			this.nodes.leave(this.settings.queue(), this.node);
		}
		catch (RuntimeException ex) {
			logger.debug(ex, () -> "Cannot remove the listener of queue '" + this.settings.queue()
					+ "' from its node registry; it expires after " + NodeListener.MISSED_BEATS + " beats");
		}
	}

	private NodeListener summary(Duration announced) {
		ListenerCounters c = this.counters;
		return new NodeListener(this.node.name(), this.settings.id(), this.runs.concurrency(), this.runs.isPaused(),
				this.runs.inFlight(), c.completed.sum(), c.retried.sum(), c.dead.sum(), c.stale.sum(), announced,
				Instant.EPOCH);
	}

}
