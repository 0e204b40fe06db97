package io.echomq.dashboard;

import java.util.List;

/**
 * Per-minute throughput of a queue, for the dashboard's chart.
 * <p>
 * {@link EngineQueueHistory} (the default) reads the bounded per-minute series the
 * transition scripts keep in each queue's keyspace, so that every node's work shows. With
 * {@link #none()} the page draws the chart from the cumulative counters it samples on
 * every refresh, for as long as it is open.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface QueueHistory {

	/** Most minutes a series covers. */
	int MAX_MINUTES = 60;

	/**
	 * Return whether a series is kept at all; when not, the page samples counters.
	 * @return whether {@link #minutes(String, int)} reports the engine's series
	 */
	default boolean isKept() {
		return true;
	}

	/**
	 * Return the last minutes of a queue, oldest first, one entry per minute that had any
	 * work (minutes without any may be left out).
	 * @param queue the queue
	 * @param minutes how many minutes back, at most {@value #MAX_MINUTES}
	 * @return the minutes
	 */
	List<Minute> minutes(String queue, int minutes);

	/**
	 * Return the history of an engine that keeps none.
	 * @return a history that is never kept and always empty
	 */
	static QueueHistory none() {
		return new QueueHistory() {

			@Override
			public boolean isKept() {
				return false;
			}

			@Override
			public List<Minute> minutes(String queue, int minutes) {
				return List.of();
			}

		};
	}

	/**
	 * The work of one minute.
	 *
	 * @param start the start of the minute, epoch ms
	 * @param completed jobs completed in that minute
	 * @param failed failed attempts in that minute, retried or dead-lettered
	 */
	record Minute(long start, long completed, long failed) {

	}

}
