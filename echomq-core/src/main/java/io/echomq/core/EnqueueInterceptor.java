package io.echomq.core;

import java.util.List;
import java.util.Map;

import io.echomq.EchoMqTemplate;

/**
 * Adds row fields to jobs as they are enqueued, e.g. to carry a trace context, and hears
 * how the write went. For each enqueue call, {@link #fields} is called first, in order,
 * then, on the same thread and in reverse order, exactly one of {@link #onEnqueued} or
 * {@link #onFailure} for every interceptor whose {@code fields} returned.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see EchoMqTemplate
 */
@FunctionalInterface
public interface EnqueueInterceptor {

	/**
	 * Return the row fields to write, given those collected so far.
	 * @param queue the queue
	 * @param fields the fields so far
	 * @return the fields to write
	 */
	Map<String, String> fields(String queue, Map<String, String> fields);

	/**
	 * Called once the jobs are written. What it throws is logged, never rethrown.
	 * @param queue the queue
	 * @param ids the new job ids (none when a unique enqueue found its key held)
	 */
	default void onEnqueued(String queue, List<JobId> ids) {
	}

	/**
	 * Called when the write failed, before the failure is rethrown to the caller.
	 * @param queue the queue
	 * @param error the failure
	 */
	default void onFailure(String queue, Throwable error) {
	}

}
