package io.echomq.dashboard;

import java.util.ArrayList;
import java.util.List;

import io.echomq.core.internal.MinuteCount;
import io.echomq.core.QueueInspector;
import io.echomq.core.internal.Engine;

import org.springframework.util.Assert;

/**
 * The per-minute history the engine keeps in each queue's keyspace
 * ({@link io.echomq.core.internal.KeyType#MINUTES}), counted by the complete and retry
 * scripts on every node: one {@code HGETALL} of at most 242 fields and one {@code TIME}
 * per queue per read.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EngineQueueHistory implements QueueHistory {

	private final QueueInspector inspector;

	/**
	 * Create a history over an engine.
	 * @param jobs the engine
	 */
	public EngineQueueHistory(Engine jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.inspector = new QueueInspector(jobs);
	}

	@Override
	public List<Minute> minutes(String queue, int minutes) {
		List<MinuteCount> series = this.inspector.minutes(queue, minutes);
		List<Minute> result = new ArrayList<>(series.size());
		for (MinuteCount minute : series) {
			result.add(new Minute(minute.start().toEpochMilli(), minute.completed(), minute.failed()));
		}
		return result;
	}

}
