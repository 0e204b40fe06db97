package io.echomq.core.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.JobState;
import io.echomq.core.Retention;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The bounds of each queue's history (its completed and dead locations) and the ids the
 * last transition of this node named as over them, for the next one to trim: the one
 * owner of these caches, which the engine's parts read and write through its methods.
 *
 * @author EchoMQ
 */
final class Retentions {

	private final Map<String, Retention> completed = new ConcurrentHashMap<>();

	private final Map<String, Retention> dead = new ConcurrentHashMap<>();

	private final Map<String, String[]> completedTrims = new ConcurrentHashMap<>();

	private final Map<String, String[]> deadTrims = new ConcurrentHashMap<>();

	void retain(String queue, Retention completed, Retention dead) {
		this.completed.put(queue, completed);
		this.dead.put(queue, dead);
	}

	/**
	 * Return the bounds of a queue's history in a location: none kept by default for
	 * completed jobs, {@link Retention#DEAD_DEFAULT} for dead ones.
	 */
	Retention of(String queue, JobState location) {
		Assert.isTrue(location == JobState.COMPLETED || location == JobState.DEAD,
				() -> "only completed and dead keep history, not " + location.value());
		return (location == JobState.COMPLETED) ? this.completed.getOrDefault(queue, Retention.NONE)
				: this.dead.getOrDefault(queue, Retention.DEAD_DEFAULT);
	}

	boolean keepsCompleted(String queue) {
		return of(queue, JobState.COMPLETED).isEnabled();
	}

	/**
	 * Take the ids to trim from a location that the last transition named, if any.
	 */
	String @Nullable [] takeTrims(String queue, JobState location) {
		return trims(location).remove(queue);
	}

	/**
	 * Keep the ids a transition named as over the bounds, for the next one.
	 */
	void trimNext(String queue, JobState location, String[] ids) {
		trims(location).put(queue, ids);
	}

	/**
	 * Give back ids taken for a transition that did not trim them, unless newer ones were
	 * kept meanwhile.
	 */
	void giveBack(String queue, JobState location, String[] ids) {
		trims(location).putIfAbsent(queue, ids);
	}

	private Map<String, String[]> trims(JobState location) {
		return (location == JobState.COMPLETED) ? this.completedTrims : this.deadTrims;
	}

}
