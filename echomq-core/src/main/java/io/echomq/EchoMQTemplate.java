package io.echomq;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.echomq.core.EnqueueSpec;
import io.echomq.core.JobId;
import io.echomq.core.Jobs;
import io.echomq.core.Keyspace;
import io.echomq.support.PayloadConverter;

import org.springframework.core.log.LogAccessor;
import org.springframework.util.Assert;

/**
 * Enqueues jobs. Payloads are serialized by the {@link PayloadConverter} (JSON with the
 * application's Jackson mapper by default) and checked against the size limit before
 * anything is written.
 * <p>
 * Inside a Spring-managed transaction an enqueue waits for the commit and is dropped on
 * rollback (see {@link #setEnqueueAfterCommit} and {@link EnqueueOptions#withAfterCommit}).
 * A write that fails at commit time is thrown to the caller of the commit as an
 * {@link EnqueueAfterCommitException}: the transaction stays committed, and the caller
 * is the one who can act on it (retry, compensate, alert).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMQTemplate {

	private static final LogAccessor logger = new LogAccessor(EchoMQTemplate.class);

	private final Jobs jobs;

	private final PayloadConverter converter;

	private final long maxPayloadBytes;

	private final Function<String, Integer> defaultMaxAttempts;

	private final List<EnqueueInterceptor> interceptors;

	private volatile boolean enqueueAfterCommit = true;

	/**
	 * Create a template.
	 * @param jobs the engine
	 * @param converter the payload converter
	 * @param maxPayloadBytes the largest serialized payload accepted
	 * @param defaultMaxAttempts the attempt budget of a queue when the options name none
	 * @param interceptors callbacks that may add row fields (such as trace headers)
	 */
	public EchoMQTemplate(Jobs jobs, PayloadConverter converter, long maxPayloadBytes,
			Function<String, Integer> defaultMaxAttempts, List<EnqueueInterceptor> interceptors) {
		Assert.notNull(jobs, "'jobs' must not be null");
		Assert.notNull(converter, "'converter' must not be null");
		Assert.isTrue(maxPayloadBytes > 0, "'maxPayloadBytes' must be positive");
		this.jobs = jobs;
		this.converter = converter;
		this.maxPayloadBytes = maxPayloadBytes;
		this.defaultMaxAttempts = defaultMaxAttempts;
		this.interceptors = List.copyOf(interceptors);
	}

	/**
	 * Enqueue a job to run now.
	 * @param queue the queue
	 * @param payload the payload
	 * @return the job id
	 */
	public JobId enqueue(String queue, Object payload) {
		return enqueue(queue, payload, EnqueueOptions.defaults());
	}

	/**
	 * Enqueue a job.
	 * @param queue the queue
	 * @param payload the payload
	 * @param options delay, run-at, priority, attempts
	 * @return the job id
	 * @throws IllegalArgumentException if the payload is {@code null}
	 * @throws io.echomq.core.ServerOutOfMemoryException if the server is full (nothing was
	 * written)
	 */
	public JobId enqueue(String queue, Object payload, EnqueueOptions options) {
		Keyspace.validateQueueName(queue);
		if (payload == null) {
			throw new IllegalArgumentException("Payload for queue '" + queue + "' must not be null");
		}
		return enqueueAll(queue, List.of(payload), options).get(0);
	}

	/**
	 * Enqueue many jobs to run now, in pipelined batches.
	 * @param queue the queue
	 * @param payloads the payloads
	 * @return the job ids, in payload order
	 */
	public List<JobId> enqueueAll(String queue, Collection<?> payloads) {
		return enqueueAll(queue, payloads, EnqueueOptions.defaults());
	}

	/**
	 * Enqueue many jobs with the same options, in pipelined batches. Every payload is
	 * serialized and checked before the first write.
	 * @param queue the queue
	 * @param payloads the payloads
	 * @param options delay, run-at, priority, attempts
	 * @return the job ids, in payload order
	 * @throws IllegalArgumentException if a payload is {@code null}
	 * @throws io.echomq.core.ServerOutOfMemoryException if the server is full (nothing was
	 * written)
	 * @throws io.echomq.core.PartialEnqueueException if a batch of more than
	 * {@value Jobs#ENQUEUE_CHUNK} was written only in part, naming the jobs that were
	 */
	public List<JobId> enqueueAll(String queue, Collection<?> payloads, EnqueueOptions options) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(payloads, "'payloads' must not be null");
		Assert.notNull(options, "'options' must not be null");
		List<String> texts = new ArrayList<>(payloads.size());
		for (Object payload : payloads) {
			if (payload == null) {
				throw new IllegalArgumentException("Payload " + (texts.size() + 1) + " of " + payloads.size()
						+ " for queue '" + queue + "' must not be null");
			}
			String text = this.converter.write(payload);
			long size = text.getBytes(StandardCharsets.UTF_8).length;
			if (size > this.maxPayloadBytes) {
				throw new PayloadTooLargeException(queue, size, this.maxPayloadBytes);
			}
			texts.add(text);
		}
		if (texts.isEmpty()) {
			return List.of();
		}
		List<JobId> ids = new ArrayList<>(texts.size());
		for (int i = 0; i < texts.size(); i++) {
			ids.add(JobId.mint());
		}
		boolean afterCommit = (options.afterCommit() != null) ? options.afterCommit() : this.enqueueAfterCommit;
		if (afterCommit && AfterCommitEnqueues.transactionActive()) {
			AfterCommitEnqueues.defer(this, queue, ids, () -> write(queue, ids, texts, options));
		}
		else {
			write(queue, ids, texts, options);
		}
		return ids;
	}

	private void write(String queue, List<JobId> ids, List<String> texts, EnqueueOptions options) {
		int prepared = 0;
		try {
			Map<String, String> fields = Map.of();
			for (EnqueueInterceptor interceptor : this.interceptors) {
				fields = interceptor.fields(queue, fields);
				prepared++;
			}
			this.jobs.enqueueAll(queue, ids, texts, spec(queue, options, fields));
		}
		catch (RuntimeException | Error ex) {
			for (int i = prepared - 1; i >= 0; i--) {
				EnqueueInterceptor interceptor = this.interceptors.get(i);
				notify(interceptor, () -> interceptor.onFailure(queue, ex));
			}
			throw ex;
		}
		for (int i = prepared - 1; i >= 0; i--) {
			EnqueueInterceptor interceptor = this.interceptors.get(i);
			notify(interceptor, () -> interceptor.onEnqueued(queue, ids));
		}
	}

	/**
	 * Set whether an enqueue inside a Spring-managed transaction waits for the commit
	 * (and is dropped on rollback) unless its options say otherwise. On by default. The
	 * ids are returned at once either way; payloads are serialized and checked at once,
	 * so bad input still fails the call.
	 * @param enqueueAfterCommit whether to defer enqueues to the commit
	 */
	public void setEnqueueAfterCommit(boolean enqueueAfterCommit) {
		this.enqueueAfterCommit = enqueueAfterCommit;
	}

	/**
	 * Return whether enqueues inside a transaction wait for its commit by default.
	 * @return whether enqueues are deferred
	 */
	public boolean isEnqueueAfterCommit() {
		return this.enqueueAfterCommit;
	}

	/**
	 * Return the engine this template writes through.
	 * @return the engine
	 */
	public Jobs getJobs() {
		return this.jobs;
	}

	private static void notify(EnqueueInterceptor interceptor, Runnable callback) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			// the jobs are written (or the failure is already reported): never turn a
			// callback's failure into an enqueue failure
			logger.warn(ex, () -> "EnqueueInterceptor " + interceptor + " failed");
		}
	}

	private EnqueueSpec spec(String queue, EnqueueOptions options, Map<String, String> fields) {
		int maxAttempts = (options.maxAttempts() != null) ? options.maxAttempts()
				: this.defaultMaxAttempts.apply(queue);
		EnqueueSpec spec = EnqueueSpec.defaults()
			.withMaxAttempts(maxAttempts)
			.withPriority(options.priority())
			.withRunAt(options.runAt())
			.withTimeout(options.timeout())
			.withLane(options.lane())
			.withFields(fields);
		return (options.delay() != null) ? spec.withDelay(options.delay()) : spec;
	}

	/**
	 * Adds row fields to jobs as they are enqueued, e.g. to carry a trace context, and
	 * hears how the write went. For each enqueue call, {@link #fields} is called first,
	 * in order, then, on the same thread and in reverse order, exactly one of
	 * {@link #onEnqueued} or {@link #onFailure} for every interceptor whose
	 * {@code fields} returned.
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
		 * @param ids the new job ids
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

}
