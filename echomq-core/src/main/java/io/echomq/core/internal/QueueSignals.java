package io.echomq.core.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.util.Assert;

/**
 * In-process signals about a queue, from the listeners of this node to its maintenance
 * ticks: the reap and promote ticks sleep until the earliest lease deadline or run-at
 * they know of, and these tell them to read a queue again before that.
 * <p>
 * A delayed job that comes before every other scheduled job pushes a schedule token on
 * the queue's wake list (enqueue, retry, release and replay do); the listener on any node
 * that pops it reports {@link #scheduleChanged(String)} here, so that node's promote tick
 * reads the schedule's new head at once. A listener that starts reports
 * {@link #queueOpened(String)}: its queue's schedule and leases are read at once rather
 * than at the next idle check. A completing script of this node that wrote a record to a
 * queue's outbox (a child of a flow whose parent is on another slot) reports
 * {@link #outboxWritten(String)}: the record is relayed at once rather than at the next
 * reap tick.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class QueueSignals {

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Add a listener.
	 * @param listener told about every later signal
	 * @return what removes it again
	 */
	public Runnable subscribe(Listener listener) {
		Assert.notNull(listener, "'listener' must not be null");
		this.listeners.add(listener);
		return () -> this.listeners.remove(listener);
	}

	/**
	 * Report that a queue's schedule may have a new head (a schedule token was popped).
	 * @param queue the engine queue name (a partition's name for a partitioned queue)
	 */
	public void scheduleChanged(String queue) {
		for (Listener listener : this.listeners) {
			listener.scheduleChanged(queue);
		}
	}

	/**
	 * Report that a listener started on a queue.
	 * @param queue the engine queue name (a partition's name for a partitioned queue)
	 */
	public void queueOpened(String queue) {
		for (Listener listener : this.listeners) {
			listener.queueOpened(queue);
		}
	}

	/**
	 * Report that a completing script wrote a record to a queue's outbox.
	 * @param queue the engine queue name of the finished child
	 */
	public void outboxWritten(String queue) {
		for (Listener listener : this.listeners) {
			listener.outboxWritten(queue);
		}
	}

	/**
	 * Told about the signals of one node.
	 */
	public interface Listener {

		/**
		 * A queue's schedule may have a new head.
		 * @param queue the engine queue name
		 */
		void scheduleChanged(String queue);

		/**
		 * A listener started on a queue.
		 * @param queue the engine queue name
		 */
		void queueOpened(String queue);

		/**
		 * A completing script wrote a record to a queue's outbox.
		 * @param queue the engine queue name
		 */
		default void outboxWritten(String queue) {
		}

	}

}
