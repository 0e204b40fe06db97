package io.echomq.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * Reads queue state for dashboards and endpoints: location sizes, counters, pages of
 * dead jobs. Reads only; never part of a transition.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class QueueInspector {

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	/**
	 * Create an inspector.
	 * @param jobs the engine whose keyspace is read
	 */
	public QueueInspector(Jobs jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.keyspace = jobs.keyspace();
		this.template = jobs.executor().getTemplate();
	}

	/**
	 * Return a snapshot of a queue.
	 * @param queue the queue
	 * @return the snapshot
	 */
	public QueueStats stats(String queue) {
		long[] sizes = new long[JobState.values().length];
		for (JobState state : JobState.values()) {
			Long size = this.template.opsForZSet().zCard(this.keyspace.queueKey(queue, state.location()));
			sizes[state.ordinal()] = (size != null) ? size : 0;
		}
		Map<Object, Object> raw = this.template.opsForHash().entries(this.keyspace.queueKey(queue, KeyType.METRICS));
		Map<String, Long> counters = new LinkedHashMap<>();
		raw.forEach((name, value) -> {
			// a counter that is not an integer is left out here; the audit reports it
			Long number = RowSchema.parse(String.valueOf(value));
			if (number != null) {
				counters.put(String.valueOf(name), number);
			}
		});
		return new QueueStats(queue, sizes[JobState.PENDING.ordinal()], sizes[JobState.ACTIVE.ordinal()],
				sizes[JobState.SCHEDULE.ordinal()], sizes[JobState.DEAD.ordinal()], sizes[JobState.QUARANTINE.ordinal()],
				counters);
	}

	/**
	 * Return a page of dead jobs, most recent first.
	 * @param queue the queue
	 * @param offset how many to skip
	 * @param limit the page size
	 * @return the dead jobs
	 */
	public List<JobView> dead(String queue, int offset, int limit) {
		Assert.isTrue(offset >= 0, "offset must not be negative");
		Assert.isTrue(limit > 0, "limit must be positive");
		Set<TypedTuple<String>> page = this.template.opsForZSet()
			.reverseRangeWithScores(this.keyspace.queueKey(queue, KeyType.DEAD), offset, offset + limit - 1L);
		List<JobView> views = new ArrayList<>();
		if (page == null) {
			return views;
		}
		for (TypedTuple<String> entry : page) {
			String id = entry.getValue();
			if (id == null || !JobId.isValid(id)) {
				continue;
			}
			JobView view = job(queue, JobId.parse(id));
			if (view != null) {
				views.add(view);
			}
		}
		return views;
	}

	/**
	 * Return one job's row.
	 * @param queue the queue
	 * @param id the job id
	 * @return the view, or {@code null} if the job has no row (done, or unknown) or its
	 * state names no location (the audit reports such a row); other malformed numbers
	 * read as 0
	 */
	public @Nullable JobView job(String queue, JobId id) {
		Map<Object, Object> row = this.template.opsForHash().entries(this.keyspace.jobKey(queue, id));
		JobState state = state(row.get("state"));
		if (state == null) {
			return null;
		}
		Double score = this.template.opsForZSet().score(this.keyspace.queueKey(queue, state.location()), id.toString());
		return new JobView(queue, id, state, number(row.get("attempts")), number(row.get("max_attempts")),
				String.valueOf(row.getOrDefault("payload", "")), Instant.ofEpochMilli(number(row.get("enqueued_at"))),
				(row.get("last_error") != null) ? String.valueOf(row.get("last_error")) : null,
				(score != null && state != JobState.PENDING) ? Instant.ofEpochMilli(score.longValue()) : null);
	}

	private static @Nullable JobState state(@Nullable Object value) {
		for (JobState state : JobState.values()) {
			if (state.value().equals(value)) {
				return state;
			}
		}
		return null;
	}

	private static long number(@Nullable Object value) {
		Long number = (value != null) ? RowSchema.parse(String.valueOf(value)) : null;
		return (number != null) ? number : 0;
	}

}
