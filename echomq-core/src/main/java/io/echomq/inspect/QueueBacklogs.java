package io.echomq.inspect;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.Experimental;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.LaneKeyType;
import io.echomq.core.internal.QueueAdmin;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.util.Assert;

/**
 * Reads a queue's {@link Backlog}: the signal the {@code echomq.queue.backlog*} gauges
 * publish for an autoscaler. A bounded read, never a scan: the sizes of pending, the
 * lanes and the due part of schedule ({@code ZCARD}, {@code ZCOUNT}), the head of each
 * (the next job to run: the age is that of the longest-waiting head, so on a queue with
 * priorities a low-priority job behind newer high-priority ones is not counted), the
 * heads of at most {@value #MAX_LANE_HEADS} lanes in ring order, and the per-minute
 * series. A pending job's wait starts at its row's {@code ready_at} (when it last entered
 * pending), a due scheduled job's at its run-at. Reads only.
 *
 * @author EchoMQ
 * @since 0.5.0
 */
@Experimental
public class QueueBacklogs {

	/** Whole minutes the completion rate is averaged over. */
	public static final int RATE_MINUTES = 5;

	/** Most lanes whose head job is read for the age. */
	public static final int MAX_LANE_HEADS = 32;

	private final QueueInspector inspector;

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final QueueAdmin admin;

	/**
	 * Create a reader.
	 * @param engine the engine whose keyspace is read
	 * @param inspector reads lane sizes and the per-minute series
	 */
	public QueueBacklogs(EchoMqEngine engine, QueueInspector inspector) {
		Assert.notNull(inspector, "'inspector' must not be null");
		Engine jobs = Engine.of(engine);
		this.keyspace = jobs.keyspace();
		this.template = jobs.executor().getTemplate();
		this.admin = jobs.admin();
		this.inspector = inspector;
	}

	/**
	 * Read the backlog of a queue, summed over its partitions.
	 * @param partitions the queue's partitions
	 * @return the backlog
	 */
	public Backlog read(QueuePartitions partitions) {
		Backlog total = null;
		for (String name : partitions.names()) {
			Backlog each = read(name);
			total = (total != null) ? total.plus(each) : each;
		}
		Assert.state(total != null, "a queue has at least one partition");
		return new Backlog(partitions.queue(), total.runnable(), total.age(), total.completionRate());
	}

	/**
	 * Read the backlog of one queue (or one partition).
	 * @param queue the queue or partition name
	 * @return the backlog
	 */
	public Backlog read(String queue) {
		QueuePartitions.validateEngineName(queue);
		long now = this.admin.serverTime();
		String pending = this.keyspace.locationKey(queue, JobState.PENDING);
		String schedule = this.keyspace.locationKey(queue, JobState.SCHEDULE);
		long runnable = size(this.template.opsForZSet().zCard(pending))
				+ size(this.template.opsForZSet().count(schedule, Double.NEGATIVE_INFINITY, now));
		List<String> heads = new ArrayList<>();
		head(pending, heads);
		Map<String, Long> lanes = this.inspector.laneSizes(queue);
		// a paused lane's jobs cannot start, however many workers there are
		Set<String> paused = PausedLanes.read(this.template, this.keyspace, queue);
		int read = 0;
		for (Map.Entry<String, Long> lane : lanes.entrySet()) {
			if (paused.contains(lane.getKey())) {
				continue;
			}
			runnable += lane.getValue();
			if (read++ < MAX_LANE_HEADS) {
				head(this.keyspace.laneKey(queue, lane.getKey(), LaneKeyType.PENDING.suffix()), heads);
			}
		}
		long since = now;
		Set<TypedTuple<String>> due = this.template.opsForZSet().rangeWithScores(schedule, 0, 0);
		if (due != null && !due.isEmpty()) {
			Double runAt = due.iterator().next().getScore();
			if (runAt != null && runAt <= now) {
				since = Math.min(since, runAt.longValue());
			}
		}
		for (String id : heads) {
			if (!JobId.isValid(id)) {
				continue;
			}
			List<Object> row = this.template.opsForHash()
				.multiGet(this.keyspace.jobKey(queue, id), List.of("ready_at", "enqueued_at"));
			Long ready = firstNumber(row);
			if (ready != null) {
				since = Math.min(since, ready);
			}
		}
		Duration age = (runnable > 0) ? Duration.ofMillis(Math.max(0, now - since)) : Duration.ZERO;
		return new Backlog(queue, runnable, age, completionRate(queue, now));
	}

	private double completionRate(String queue, long now) {
		long current = now / 60_000;
		long completed = 0;
		for (MinuteCount minute : this.inspector.minutes(queue, RATE_MINUTES + 1)) {
			if (minute.start().toEpochMilli() / 60_000 < current) {
				completed += minute.completed();
			}
		}
		return completed / (RATE_MINUTES * 60.0);
	}

	private void head(String key, List<String> heads) {
		Set<String> first = this.template.opsForZSet().range(key, 0, 0);
		if (first != null && !first.isEmpty()) {
			heads.add(first.iterator().next());
		}
	}

	private static @Nullable Long firstNumber(@Nullable List<Object> values) {
		if (values == null) {
			return null;
		}
		for (Object value : values) {
			Long number = (value != null) ? RowSchema.parse(String.valueOf(value)) : null;
			if (number != null) {
				return number;
			}
		}
		return null;
	}

	private static long size(@Nullable Long size) {
		return (size != null) ? size : 0;
	}

}
