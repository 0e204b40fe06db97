package io.echomq;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.EnqueueResult;
import io.echomq.core.JobId;
import io.echomq.core.internal.Engine;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.internal.BatchWrites;
import io.echomq.internal.FlowWrites;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import org.jspecify.annotations.Nullable;

/**
 * The operations of the producer side: enqueue jobs, and put, remove and list recurring
 * schedules. Implemented by {@link EchoMqTemplate}; queue administration (pause, resume,
 * cancel, replay) is {@link EchoMqAdmin}'s.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see EchoMqTemplate
 */
public interface EchoMqOperations {

	/**
	 * Enqueue a job to run now.
	 * @param queue the queue
	 * @param payload the payload
	 * @return the job id
	 */
	JobId enqueue(String queue, Object payload);

	/**
	 * Enqueue a job.
	 * <p>
	 * With a unique key in the options, the returned id is that of the job holding the
	 * key, which is not a new job when the key was held (use
	 * {@link #enqueueUnique(String, Object, EnqueueOptions)} to know which). A unique
	 * enqueue deferred to a transaction's commit returns the id the job gets if the key
	 * is free at commit time; if it is held then, no job has that id.
	 * @param queue the queue
	 * @param payload the payload
	 * @param options delay, run-at, priority, attempts, unique key
	 * @return the job id
	 * @throws IllegalArgumentException if the payload is {@code null}
	 * @throws io.echomq.core.ServerOutOfMemoryException if the server is full (nothing
	 * was written)
	 * @throws io.echomq.core.EnqueueOutcomeUnknownException if the call got no answer:
	 * the job, whose id it names, may or may not be enqueued; look it up by id
	 */
	JobId enqueue(String queue, Object payload, EnqueueOptions options);

	/**
	 * Enqueue a job with a unique key ({@link EnqueueOptions#withUniqueKey},
	 * {@link EnqueueOptions#withThrottle}, {@link EnqueueOptions#withDebounce}) and say
	 * what happened: a new job, or the id of the job that already holds the key. A
	 * duplicate is an answer, not an exception. Always written at once: the outcome of a
	 * unique enqueue is known only once it is written, so inside a transaction that would
	 * defer it this method refuses (pass {@code withAfterCommit(false)}, or call
	 * {@link #enqueue(String, Object, EnqueueOptions)}).
	 * @param queue the queue
	 * @param payload the payload
	 * @param options the options, with a unique key
	 * @return the job holding the key, and whether it is new
	 * @throws IllegalArgumentException if the options have no unique key or the payload
	 * is {@code null} (nothing was written)
	 * @throws IllegalStateException if called in a transaction that would defer it
	 */
	EnqueueResult enqueueUnique(String queue, Object payload, EnqueueOptions options);

	/**
	 * Enqueue many jobs to run now, in pipelined batches.
	 * @param queue the queue
	 * @param payloads the payloads
	 * @return the job ids, in payload order
	 */
	List<JobId> enqueueAll(String queue, Collection<?> payloads);

	/**
	 * Enqueue many jobs with the same options, in pipelined batches. Every payload is
	 * serialized and checked before the first write.
	 * @param queue the queue
	 * @param payloads the payloads
	 * @param options delay, run-at, priority, attempts
	 * @return the job ids, in payload order
	 * @throws IllegalArgumentException if a payload is {@code null}
	 * @throws io.echomq.core.ServerOutOfMemoryException if the server is full (nothing
	 * was written)
	 * @throws io.echomq.core.PartialEnqueueException if a batch of more than
	 * {@value Engine#ENQUEUE_CHUNK} was written only in part, naming the jobs that were
	 * @throws io.echomq.core.EnqueueOutcomeUnknownException (a
	 * {@code PartialEnqueueException}) if no call got an answer: the jobs it names may or
	 * may not be enqueued; look them up by id
	 */
	List<JobId> enqueueAll(String queue, Collection<?> payloads, EnqueueOptions options);

	/**
	 * Put a recurring schedule in the store: from its next fire time on, every node's
	 * tick enqueues one job per fire time to {@code queue} with the payload. Putting a
	 * schedule of the same name again replaces it (a changed spec takes effect on every
	 * node's next tick); putting the same definition again changes nothing. Schedules put
	 * here are kept until {@link #unschedule(String, String)}; start-up never removes
	 * them.
	 * @param queue the queue the occurrences go to
	 * @param name the schedule name, unique within the queue
	 * @param spec when it fires
	 * @param payload the payload of each occurrence
	 * @return whether the store changed
	 * @throws InvalidScheduleException naming the bad name, queue, spec or payload,
	 * before anything is written
	 */
	boolean schedule(String queue, String name, ScheduleSpec spec, Object payload);

	/**
	 * Remove a recurring schedule, whichever way it was declared. Occurrences already
	 * enqueued stay. A schedule declared by annotation or property comes back at the next
	 * start-up of an application that declares it.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return whether it existed
	 */
	boolean unschedule(String queue, String name);

	/**
	 * Return every recurring schedule in the store, of every queue that has one.
	 * @return the schedules with their last and next fire time, by queue and name
	 */
	List<ScheduleState> schedules();

	/**
	 * Return the recurring schedules of one queue.
	 * @param queue the queue
	 * @return the schedules with their last and next fire time, by name
	 */
	List<ScheduleState> schedules(String queue);

	/**
	 * Read a completed job's result, the value its handler method returned, through the
	 * payload converter. It is kept on the job's row while the queue retains its
	 * completed jobs, else for {@code echomq.queues.<queue>.results.ttl} after the
	 * completion.
	 * @param <T> the result type
	 * @param queue the queue the job was enqueued to
	 * @param id the job id
	 * @param type the type to read the result as
	 * @return the result, or {@code null} when none is stored: the job has not completed,
	 * returned nothing, or its result expired or was trimmed with its row
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 * @throws io.echomq.support.PayloadConversionException if the stored result cannot be
	 * read as {@code type}
	 */
	<T> @Nullable T result(String queue, JobId id, Class<T> type);

	/**
	 * Read a completed job's result as a generic type (see
	 * {@link #result(String, JobId, Class)}).
	 * @param queue the queue the job was enqueued to
	 * @param id the job id
	 * @param type the type to read the result as, e.g. a {@code ParameterizedType}
	 * @return the result, or {@code null} when none is stored
	 */
	@Nullable Object result(String queue, JobId id, Type type);

	/**
	 * Await a job's outcome, on whichever node it runs: the future completes with the
	 * result (read as {@code type} through the payload converter; {@code null} when the
	 * handler returned nothing) when the job completes, or exceptionally with
	 * {@link io.echomq.core.JobFailedException} (dead-lettered, carrying its last error),
	 * {@link io.echomq.core.JobCancelledException},
	 * {@link io.echomq.core.JobNotFoundException} (gone with no result) or
	 * {@link io.echomq.core.AwaitTimeoutException}. One Pub/Sub subscription per queue
	 * serves every await of this JVM; no polling. A JVM that stops loses its futures, not
	 * the results: {@link #result(String, JobId, Class)} still reads them.
	 * @param <T> the result type
	 * @param queue the queue the job was enqueued to
	 * @param id the job id
	 * @param type the type to read the result as
	 * @param timeout how long to wait at most
	 * @return the future
	 */
	<T> CompletableFuture<@Nullable T> resultOf(String queue, JobId id, Class<T> type, Duration timeout);

	/**
	 * Await a job's outcome, blocking (see
	 * {@link #resultOf(String, JobId, Class, Duration)}).
	 * @param <T> the result type
	 * @param queue the queue the job was enqueued to
	 * @param id the job id
	 * @param type the type to read the result as
	 * @param timeout how long to wait at most
	 * @return the result, or {@code null} when the handler returned nothing
	 * @throws io.echomq.core.JobFailedException if the job was dead-lettered
	 * @throws io.echomq.core.JobCancelledException if the job was cancelled
	 * @throws io.echomq.core.JobNotFoundException if the job is gone with no result
	 * @throws io.echomq.core.AwaitTimeoutException if it had no outcome within the
	 * timeout
	 */
	<T> @Nullable T await(String queue, JobId id, Class<T> type, Duration timeout);

	/**
	 * Enqueue a job, written at once (never deferred to a transaction's commit), and
	 * await its result (see {@link #resultOf(String, JobId, Class, Duration)}).
	 * @param <T> the result type
	 * @param queue the queue
	 * @param payload the payload
	 * @param type the type to read the result as
	 * @param timeout how long to wait at most
	 * @return the future
	 */
	<T> CompletableFuture<@Nullable T> enqueueForResult(String queue, Object payload, Class<T> type, Duration timeout);

	/**
	 * Enqueue a flow: a job that runs only after its children have finished, each child
	 * possibly in another queue and with children of its own (see {@code docs/flows.md}).
	 * The whole tree is checked and its payloads converted before anything is written;
	 * then each parent is written to its queue's {@code waiting} location before its
	 * children. Inside a transaction the flow is written after the commit, as
	 * {@link #enqueue(String, Object, EnqueueOptions)} does with the root's options.
	 * @param spec the flow
	 * @return the flow's jobs, with their ids
	 * @throws IllegalArgumentException if the flow is malformed (a partitioned queue, a
	 * unique key, a parent with a delay or a lane, over {@value FlowWrites#MAX_DEPTH}
	 * levels, {@value FlowWrites#MAX_CHILDREN} children or {@value FlowWrites#MAX_JOBS}
	 * jobs): nothing was written
	 * @throws io.echomq.core.InvalidQueueNameException if a queue name is not valid
	 * (nothing was written)
	 * @throws io.echomq.core.PartialEnqueueException if a write failed after others had
	 * applied
	 */
	FlowJob flow(FlowSpec spec);

	/**
	 * Enqueue a chain: each step runs after the one before it has completed, and reads
	 * its result ({@link io.echomq.listener.JobContext#previous()}). Sugar over
	 * {@link #flow(FlowSpec)}: each step is the parent of the step before it, which
	 * dead-letters it when it dies, so a dead step stops the chain.
	 * @param steps the steps, in order, each without children
	 * @return the last step, its child the step before it, and so on down to the first
	 * @throws IllegalArgumentException if there are fewer than two steps, a step has
	 * children, or the flow is malformed ({@link #flow(FlowSpec)}): nothing was written
	 */
	FlowJob chain(List<FlowSpec> steps);

	/**
	 * Enqueue a batch: jobs in any queues and callbacks that run when they have finished
	 * (see {@code docs/flows.md}). Everything is checked and every payload converted
	 * before anything is written; then the callbacks (each waiting for the batch), the
	 * batch in its home queue's {@code batches} location, its jobs and, unless the spec
	 * is {@link BatchSpec#open() open}, the seal. Each callback is enqueued exactly once.
	 * The batch is written at once, also inside a transaction.
	 * @param spec the batch
	 * @return the batch, its jobs and callbacks, with their ids
	 * @throws IllegalArgumentException if the batch is malformed (a sealed batch without
	 * jobs, a job with children, a callback with a delay or a lane, a partitioned queue,
	 * a unique key, over {@value BatchWrites#MAX_JOBS} jobs): nothing was written
	 * @throws io.echomq.core.InvalidQueueNameException if a queue name is not valid
	 * (nothing was written)
	 * @throws io.echomq.core.PartialEnqueueException if a write failed after others had
	 * applied
	 */
	BatchJob batch(BatchSpec spec);

	/**
	 * Add jobs to an open batch.
	 * @param queue the batch's home queue
	 * @param batch the batch id
	 * @param jobs the jobs, each without children
	 * @return the jobs written, in order
	 * @throws IllegalArgumentException if a job is malformed (nothing was written)
	 * @throws IllegalStateException if there is no such batch or it is sealed (nothing
	 * was written)
	 */
	List<FlowJob> addToBatch(String queue, JobId batch, List<FlowSpec> jobs);

	/**
	 * Seal a batch: it takes no more jobs, and its callbacks are enqueued once its last
	 * job has finished (at once when every job has). Sealing twice changes nothing.
	 * @param queue the batch's home queue
	 * @param batch the batch id
	 * @throws IllegalStateException if there is no such batch
	 */
	void sealBatch(String queue, JobId batch);

	/**
	 * Return where a batch stands: its counts and its callbacks. A finished batch is kept
	 * 24 hours.
	 * @param queue the batch's home queue
	 * @param batch the batch id
	 * @return the status, or {@code null} when there is no such batch (any more)
	 */
	@Nullable BatchStatus batchStatus(String queue, JobId batch);

}
