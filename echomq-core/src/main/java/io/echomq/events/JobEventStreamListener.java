package io.echomq.events;

/**
 * A bean that hears the job events of one queue, written by every node that runs the
 * queue's transitions ({@code echomq.queues.<queue>.events.enabled=true}). Events arrive
 * one at a time, in the order of the queue's stream, on a thread of the listener's own.
 * <p>
 * The listener reads through a stream consumer group named by its {@link #id()}, and
 * acknowledges each event once {@link #onEvent(JobEvent)} returned (or threw: the error
 * is logged and the event is not delivered again). After a restart it resumes after the
 * last event it acknowledged; events the stream's bound trimmed before it read them are
 * counted and reported to {@link #onGap(JobEventGap)}, never skipped silently.
 * <p>
 * Copies of the application (several processes running the same jar, each with this
 * listener) are competing consumers of the group by default: each reads as a consumer of
 * its own (named by its {@link io.echomq.core.EchoMqNode node name}), and each event goes
 * to one of them; an event another copy took is not a gap. A listener that must be heard
 * by every copy returns {@code true} from {@link #broadcast()}.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public interface JobEventStreamListener {

	/**
	 * Return the queue whose events to hear.
	 * @return the queue
	 */
	String queue();

	/**
	 * Return the listener's id: the consumer group that remembers what it heard.
	 * @return the id
	 */
	String id();

	/**
	 * Return whether every copy of the application hears every event. By default
	 * ({@code false}) the copies share the group named by {@link #id()} and each event
	 * goes to one of them. When {@code true}, each copy reads through a group of its own,
	 * {@code <id> <node name>}, created at the end of the stream the first time: it hears
	 * the events written after it first joined, and resumes there after a restart under
	 * the same node name. A copy that is gone leaves its group behind on the stream
	 * ({@code XGROUP DESTROY} removes it).
	 * @return whether each copy hears every event
	 * @since 0.5.0
	 */
	default boolean broadcast() {
		return false;
	}

	/**
	 * Hear one event.
	 * @param event the event
	 */
	void onEvent(JobEvent event);

	/**
	 * Hear that events were trimmed before this listener read them. Does nothing by
	 * default (the gap is logged at WARN and counted as {@code echomq.events.gaps}).
	 * @param gap the events missed
	 */
	default void onGap(JobEventGap gap) {
	}

}
