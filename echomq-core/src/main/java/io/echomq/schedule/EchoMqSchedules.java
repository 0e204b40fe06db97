package io.echomq.schedule;

import java.util.List;
import java.util.Set;

import io.echomq.core.Experimental;
import org.jspecify.annotations.Nullable;

/**
 * The recurring schedules this application's nodes fire, as an operator lists and fires
 * them: every schedule in the store with its last and next fire time, and a fire now. The
 * auto-configuration provides it as a bean when schedules are enabled.
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

}
