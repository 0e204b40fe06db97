package io.echomq.core.internal;

import java.util.List;

import io.echomq.core.QueuePartitions;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Job events other processes hear: which queues write their transitions to their
 * {@link KeyType#EVENTS event stream}, and its bound. The transition scripts of such a
 * queue add one entry per transition in the same move (events.lua); a queue that does not
 * opt in writes no stream and pays one map lookup per call.
 *
 * @author EchoMQ
 */
public final class Events extends EnginePart {

	/** The default bound of a queue's event stream, in entries. */
	public static final long DEFAULT_MAX_LENGTH = 10_000;

	/** The argument that introduces the bound (EVENTS_TAG of events.lua). */
	static final String TAG = "=events";

	Events(EngineState state) {
		super(state);
	}

	/**
	 * Have a queue's transitions write its event stream, trimmed to about
	 * {@code maxLength} entries ({@code MAXLEN ~}: a few more may stay until a whole
	 * stream node can go).
	 * @param queue the queue (or partition)
	 * @param maxLength the bound, at least 1
	 */
	public void enable(String queue, long maxLength) {
		QueuePartitions.validateEngineName(queue);
		Assert.isTrue(maxLength > 0, () -> "the event stream's max length must be positive, was " + maxLength);
		this.state.eventBound(queue, maxLength);
	}

	/**
	 * Stop writing a queue's event stream (the stream stays until it is deleted).
	 * @param queue the queue (or partition)
	 */
	public void disable(String queue) {
		this.state.eventBound(queue, null);
	}

	/**
	 * Return the bound of a queue's event stream.
	 * @param queue the queue (or partition)
	 * @return the bound, or {@code null} when the queue writes no events
	 */
	public @Nullable Long maxLength(String queue) {
		return this.state.eventBound(queue);
	}

	/**
	 * Declare a queue's event stream on a transition call when the queue writes events:
	 * the stream key after every other key, the tag and the bound at the end of the
	 * arguments (events.lua). A queue that does not writes nothing and pays one map
	 * lookup.
	 * @param queue the queue (or partition)
	 * @param keys the call's keys, to add the stream to
	 * @param args the call's arguments, to add the tag and bound to
	 */
	public void declare(String queue, List<String> keys, List<String> args) {
		this.state.declareEvents(queue, keys, args);
	}

	/**
	 * Return the key of a queue's event stream.
	 * @param queue the queue (or partition)
	 * @return the key
	 */
	public String key(String queue) {
		return this.state.keys(queue).events();
	}

}
