package io.echomq.schedule;

/**
 * Told about each occurrence this node enqueued (metrics, logs). Called on the tick's
 * thread; a listener that throws is logged and does not stop the tick.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@FunctionalInterface
public interface ScheduleFireListener {

	/**
	 * Called after an occurrence was enqueued.
	 * @param fire the occurrence
	 */
	void fired(ScheduleFire fire);

}
