package io.echomq.listener;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.echomq.core.JobId;
import io.echomq.flow.FlowChild;
import org.jspecify.annotations.Nullable;

/**
 * What a handler may know about the job it runs, and the one thing it may do to it:
 * extend its lease. Declare a parameter of this type on an {@code @EchoJob} method, in
 * any position, to receive it.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface JobContext {

	/**
	 * Return the job id.
	 * @return the id
	 */
	JobId id();

	/**
	 * Return the queue the job was claimed from.
	 * @return the queue
	 */
	String queue();

	/**
	 * Return the attempt this run counts as against the job's budget, starting at 1. A
	 * graceful release or a replay from dead does not count, so this can be lower than
	 * the number of times the job was claimed.
	 * @return the attempt
	 */
	long attempt();

	/**
	 * Return the attempt after which a failure dead-letters the job: the row's attempt
	 * budget, capped by the listener's {@code maxAttempts} when one is set.
	 * @return the last attempt
	 */
	long maxAttempts();

	/**
	 * Return when the job was enqueued (server time).
	 * @return the enqueue time
	 */
	Instant enqueuedAt();

	/**
	 * Return the extra row fields (such as trace headers).
	 * @return the fields, never {@code null}
	 */
	Map<String, String> fields();

	/**
	 * Return the children of this job when it is the parent of a flow, each with how it
	 * finished; read their results with
	 * {@link io.echomq.EchoMqOperations#result(String, JobId, Class)}.
	 * @return the children, empty for a job that is not a parent
	 */
	default List<FlowChild> children() {
		return FlowChild.of(fields());
	}

	/**
	 * Return the step before this one when this job is a step of a chain
	 * ({@link io.echomq.EchoMqOperations#chain(List)}): its only child. Read its result
	 * with {@link io.echomq.EchoMqOperations#result(String, JobId, Class)}.
	 * @return the previous step, or {@code null} for a job that does not have exactly one
	 * child
	 */
	default @Nullable FlowChild previous() {
		List<FlowChild> children = children();
		return (children.size() == 1) ? children.get(0) : null;
	}

	/**
	 * Return the job as its handler receives it: its payload, attempt, times and fields,
	 * without the claim's fencing token, which the container alone uses.
	 * @return the job
	 */
	ReceivedJob job();

	/**
	 * Renew the lease to {@code lease} from now (server time); the container keeps
	 * renewing it to that length from then on, until the handler returns.
	 * @param lease the new lease, at least 1 ms
	 * @return {@code true} if renewed, {@code false} if the lease was already lost (the
	 * job was reaped and may run elsewhere; its outcome will not be recorded here)
	 */
	boolean extendLease(Duration lease);

	/**
	 * Return whether this worker lost its lease on the job.
	 * @return {@code true} once the lease is known to be lost
	 */
	boolean isLeaseLost();

	/**
	 * Return whether the job was cancelled while it runs
	 * ({@link io.echomq.EchoMqAdmin#cancel(String, JobId)}). The worker learns it at the
	 * lease renewal (every third of the lease) and then interrupts the handler thread;
	 * whatever the handler returns or throws afterwards is discarded, and the job is
	 * retired as cancelled. A handler that checks this between steps can stop cleanly.
	 * @return {@code true} once the cancel is known here
	 */
	boolean isCancelled();

	/**
	 * Record how far the job got, in percent, on its row (readable through the inspector,
	 * the endpoint and the dashboard while the job runs). Written by a script fenced by
	 * the claim: a worker that lost its lease writes nothing.
	 * @param percent from 0 to 100
	 * @return {@code true} if written, {@code false} if the lease was already lost
	 * @throws IllegalArgumentException if the percent is outside 0-100 (nothing written)
	 * @since 0.2.0
	 */
	default boolean progress(int percent) {
		throw new UnsupportedOperationException("progress needs the context of a listener container");
	}

	/**
	 * Record the job's progress as a small object, written with the payload converter (at
	 * most 4 KB) on its row, fenced like {@link #progress(int)}.
	 * @param progress the object
	 * @return {@code true} if written, {@code false} if the lease was already lost
	 * @throws IllegalArgumentException if the object is over 4 KB once written (nothing
	 * written)
	 * @throws io.echomq.support.PayloadConversionException if the converter cannot write
	 * it
	 * @since 0.2.0
	 */
	default boolean progress(Object progress) {
		throw new UnsupportedOperationException("progress needs the context of a listener container");
	}

}
