package io.echomq.core.internal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.JobState;

/**
 * The members the verbs met in a location and had to leave where they were (not JOB ids,
 * rows missing or breaking the row schema), per queue, for the quarantine sweep. Bounded:
 * past {@value #MAX_PER_LOCATION} members per location more are not remembered, since a
 * verb that meets them again reports them again.
 *
 * @author EchoMQ
 */
final class Suspects {

	static final int MAX_PER_LOCATION = 10_000;

	private final Map<String, Map<JobState, Set<String>>> queues = new ConcurrentHashMap<>();

	void add(String queue, JobState location, String member) {
		Set<String> members = this.queues.computeIfAbsent(queue, (name) -> newLocations()).get(location);
		if (members.size() < MAX_PER_LOCATION) {
			members.add(member);
		}
	}

	void addAll(String queue, JobState location, Iterable<String> members) {
		for (String member : members) {
			add(queue, location, member);
		}
	}

	/**
	 * Remove and return the suspects of one location of a queue.
	 */
	List<String> drain(String queue, JobState location) {
		Map<JobState, Set<String>> locations = this.queues.get(queue);
		if (locations == null) {
			return List.of();
		}
		Set<String> members = locations.get(location);
		List<String> drained = new ArrayList<>(members.size());
		for (String member : members) {
			if (members.remove(member)) {
				drained.add(member);
			}
		}
		return drained;
	}

	boolean isEmpty(String queue) {
		Map<JobState, Set<String>> locations = this.queues.get(queue);
		return locations == null || locations.values().stream().allMatch(Set::isEmpty);
	}

	private static Map<JobState, Set<String>> newLocations() {
		Map<JobState, Set<String>> locations = new EnumMap<>(JobState.class);
		for (JobState state : JobState.values()) {
			locations.put(state, ConcurrentHashMap.newKeySet());
		}
		return locations;
	}

}
