package io.echomq.dashboard;

import java.util.ArrayList;
import java.util.List;

import io.echomq.inspect.MinuteCount;
import io.echomq.inspect.QueueInspector;

import org.springframework.util.Assert;

/**
 * The per-minute history the engine keeps in each queue's keyspace (its {@code minutes}
 * key), counted by the complete and retry scripts on every node: one {@code HGETALL} of
 * at most 242 fields and one {@code TIME} per queue per read.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EngineQueueHistory implements QueueHistory {

	private final QueueInspector inspector;

	/**
	 * Create a history over the queues an inspector reads.
	 * @param inspector the inspector
	 */
	public EngineQueueHistory(QueueInspector inspector) {
		Assert.notNull(inspector, "'inspector' must not be null");
		this.inspector = inspector;
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
