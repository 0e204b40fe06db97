package io.echomq.schedule;

import java.util.List;
import java.util.Set;

import io.echomq.core.Experimental;
import org.jspecify.annotations.Nullable;

/**
 * The recurring schedules this application's nodes fire, as an operator lists and fires
 * them: every schedule in the store with its last and next fire time, a fire now, and a
 * schedule paused, resumed or deleted at run time. Pause, resume and delete are each one
 * atomic write to the schedule's record in Redis, so they hold on every node at its next
 * tick and survive restarts. The auto-configuration provides it as a bean when schedules
 * are enabled.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
@Experimental
public interface EchoMqSchedules {

	/**
	 * Return every schedule in the store, of every queue that has one.
	 * @return the schedules with their fire times
	 */
	List<ScheduleState> schedules();

	/**
	 * Return the queues that have schedules in the store.
	 * @return the queue names
	 */
	Set<String> queues();

	/**
	 * Fire a schedule now, outside its cadence: one job, as a fire at this moment, which
	 * leaves the schedule's next fire time as it was.
	 * @param queue the schedule's queue
	 * @param name the schedule's name
	 * @return the fire, or {@code null} when the queue has no schedule of that name
	 * @throws InvalidScheduleException if the name or queue is not valid
	 */
	@Nullable ScheduleFire trigger(String queue, String name);

	/**
	 * Pause a schedule on every node: it fires nothing until resumed (a trigger still
	 * fires it). The pause is kept on the schedule's record: a restart keeps it, and a
	 * declared schedule the application declares again at start-up, changed or not, stays
	 * paused. Occurrences already enqueued stay.
	 * @param queue the schedule's queue
	 * @param name the schedule's name
	 * @return the schedule as it is now, with no next fire time
	 * @throws UnknownScheduleException if the queue has no schedule of that name (nothing
	 * is written)
	 * @throws InvalidScheduleException if the name or queue is not valid
	 * @since 0.5.0
	 */
	ScheduleState pause(String queue, String name);

	/**
	 * Resume a paused schedule: its next fire time is its first after the server's
	 * current time, so the times that passed while it was paused never fire. Resuming a
	 * schedule that is not paused changes nothing.
	 * @param queue the schedule's queue
	 * @param name the schedule's name
	 * @return the schedule as it is now
	 * @throws UnknownScheduleException if the queue has no schedule of that name (nothing
	 * is written)
	 * @throws InvalidScheduleException if the name or queue is not valid
	 * @since 0.5.0
	 */
	ScheduleState resume(String queue, String name);

	/**
	 * Delete a schedule, whichever way it was declared, with its fire times; occurrences
	 * already enqueued stay. A schedule declared by annotation or property is put back at
	 * the application's next start-up: to stop a declared schedule for good, pause it (or
	 * remove the declaration).
	 * @param queue the schedule's queue
	 * @param name the schedule's name
	 * @throws UnknownScheduleException if the queue has no schedule of that name (nothing
	 * is written)
	 * @throws InvalidScheduleException if the name or queue is not valid
	 * @since 0.5.0
	 */
	void delete(String queue, String name);

}
