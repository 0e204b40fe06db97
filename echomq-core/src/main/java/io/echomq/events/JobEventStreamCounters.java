package io.echomq.events;

/**
 * Told what each {@link JobEventStreamListener} read and missed, for metrics. Both
 * methods default to doing nothing.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public interface JobEventStreamCounters {

	/** Counters that count nothing. */
	JobEventStreamCounters NONE = new JobEventStreamCounters() {
	};

	/**
	 * Events were handed to a listener.
	 * @param listener the listener
	 * @param count how many
	 */
	default void onRead(JobEventStreamListener listener, long count) {
	}

	/**
	 * A listener missed events trimmed before it read them.
	 * @param listener the listener
	 * @param missed how many
	 */
	default void onGap(JobEventStreamListener listener, long missed) {
	}

}
