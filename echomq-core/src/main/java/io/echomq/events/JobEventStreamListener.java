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
 * counted and reported to {@link #onGap(JobEventGap)}, never skipped silently. One
 * process at a time should run a listener id; give each process that must hear every
 * event an id of its own.
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
