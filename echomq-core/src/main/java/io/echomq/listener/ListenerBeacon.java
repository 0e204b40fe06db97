package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;

import io.echomq.core.EchoMqNode;
import io.echomq.core.NodeListener;
import io.echomq.core.QueueNodes;
import io.echomq.support.RateLimitedLog;

import org.springframework.core.log.LogAccessor;

/**
 * Keeps a container's entry in its queue's node registry ({@link QueueNodes}): the poller
 * beats on its own loop, which turns at least every idle wait, so no thread of its own is
 * needed; the container leaves when it stopped. One script call per queue every
 * {@link #BEAT} while the loop turns, once per idle wait while the queue is idle; the
 * entry says it beats at least every {@link #BEAT} plus the idle wait. A failed beat is logged at a limited rate and
 * never stops the poller: the registry is for people, claims do not depend on it.
 *
 * @author EchoMQ
 */
final class ListenerBeacon {

	/** Least time between two beats of a container. */
	static final Duration BEAT = Duration.ofSeconds(5);

	private static final LogAccessor logger = new LogAccessor(ListenerBeacon.class);

	private final QueueListenerContainer container;

	private final QueueNodes nodes;

	private final EchoMqNode node;

	private final Duration every;

	private final RateLimitedLog failures = new RateLimitedLog(logger, Duration.ofSeconds(60));

	private long nextBeat;

	private volatile boolean due = true;

	ListenerBeacon(QueueListenerContainer container, QueueNodes nodes, EchoMqNode node) {
		this.container = container;
		this.nodes = nodes;
		this.node = node;
		// a beat is late by at most one turn of the healthy poller loop: one idle wait
		this.every = BEAT.plus(container.getSettings().idleWait());
	}

	/**
	 * Beat if the last one is {@link #BEAT} old (poller thread).
	 */
	void beatIfDue() {
		long now = System.nanoTime();
		if (!this.due && now - this.nextBeat < 0) {
			return;
		}
		this.due = false;
		this.nextBeat = now + BEAT.toNanos();
		try {
			this.nodes.beat(this.container.getQueue(), summary());
		}
		catch (RuntimeException ex) {
			this.failures.warn(ex, () -> "Cannot register the listener of queue '" + this.container.getQueue()
					+ "' in its node registry; trying again in " + BEAT.toSeconds() + " s");
		}
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
			this.nodes.leave(this.container.getQueue(), this.node);
		}
		catch (RuntimeException ex) {
			logger.debug(ex, () -> "Cannot remove the listener of queue '" + this.container.getQueue()
					+ "' from its node registry; it expires after " + NodeListener.MISSED_BEATS + " beats");
		}
	}

	private NodeListener summary() {
		QueueListenerContainer c = this.container;
		return new NodeListener(this.node.name(), c.getId(), c.getSettings().concurrency(), c.isPaused(), c.inFlight(),
				c.getCompletedCount(), c.getRetriedCount(), c.getDeadCount(), c.getStaleCount(), this.every,
				Instant.EPOCH);
	}

}
