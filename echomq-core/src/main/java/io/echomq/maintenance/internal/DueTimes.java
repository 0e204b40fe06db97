package io.echomq.maintenance.internal;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each queue needs its next reap or promote pass, as {@link System#nanoTime()}
 * values: a queue never seen, or woken by a signal, needs one now. A wake-up that comes
 * while a pass of the queue is running survives the plan that pass makes, so a pass never
 * overwrites a wake-up it did not see.
 *
 * @author EchoMQ
 */
final class DueTimes {

	private static final long WOKEN = Long.MIN_VALUE;

	private static final long IN_PASS = Long.MIN_VALUE + 1;

	private final Map<String, Plan> plans = new ConcurrentHashMap<>();

	/**
	 * Return whether the queue needs a pass by {@code now}; an idle check counts as due
	 * up to {@code idleSlack} early, so that the idle checks of many queues fall into one
	 * run rather than one run each.
	 */
	boolean isDue(String queue, long now, long idleSlack) {
		Plan plan = this.plans.get(queue);
		if (plan == null || plan.at == WOKEN) {
			return true;
		}
		return plan.at != IN_PASS && plan.at - now <= (plan.idle ? idleSlack : 0);
	}

	/**
	 * Return whether the queue's next pass is planned only by the idle check: no wake-up,
	 * no known due time.
	 */
	boolean isIdleCheck(String queue) {
		Plan plan = this.plans.get(queue);
		return plan != null && plan.idle && plan.at != WOKEN;
	}

	/**
	 * Mark the start of a pass of the queue: the pass serves any wake-up so far.
	 */
	void begin(String queue) {
		this.plans.put(queue, new Plan(IN_PASS, false));
	}

	/**
	 * Plan the queue's next pass, unless it was woken since {@link #begin(String)}.
	 * @param queue the queue
	 * @param at the nano time
	 * @param idle whether only the idle check planned it
	 */
	void plan(String queue, long at, boolean idle) {
		this.plans.compute(queue, (name, plan) -> (plan != null && plan.at == WOKEN) ? plan : new Plan(at, idle));
	}

	/**
	 * Make the queue due now.
	 */
	void wake(String queue) {
		this.plans.put(queue, new Plan(WOKEN, false));
	}

	/**
	 * Return the earliest planned time among the queues, no later than {@code latest}.
	 */
	long earliest(Collection<String> queues, long now, long latest) {
		long earliest = latest;
		for (String queue : queues) {
			Plan plan = this.plans.get(queue);
			if (plan == null || plan.at == WOKEN) {
				return now;
			}
			if (plan.at != IN_PASS && plan.at - earliest < 0) {
				earliest = plan.at;
			}
		}
		return earliest;
	}

	/**
	 * Forget the queues that are no longer ticked.
	 */
	void retain(Collection<String> queues) {
		if (this.plans.size() > queues.size()) {
			this.plans.keySet().retainAll(queues);
		}
	}

	/**
	 * Forget every plan: each queue needs a pass now.
	 */
	void clear() {
		this.plans.clear();
	}

	private record Plan(long at, boolean idle) {

	}

}
