package io.echomq;

import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.echomq.core.Durability;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqException;
import io.echomq.core.EnqueueAfterCommitException;
import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.EnqueueResult;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.PayloadTooLargeException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.UniqueKey;
import io.echomq.core.internal.Awaits;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Enqueues;
import io.echomq.core.internal.Flows;
import io.echomq.core.internal.ReplicaAcknowledgements;
import io.echomq.core.internal.Results;
import io.echomq.core.internal.ServerFailures;
import io.echomq.crypto.PayloadDecryptionException;
import io.echomq.crypto.QueueEncryption;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.internal.AfterCommitEnqueues;
import io.echomq.internal.BatchWrites;
import io.echomq.internal.EnqueueCallbacks;
import io.echomq.internal.FlowWrites;
import io.echomq.internal.PartitionedWrites;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.internal.Schedules;
import io.echomq.support.PayloadConversionException;
import io.echomq.support.PayloadConverter;
import io.echomq.support.internal.PayloadText;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Enqueues jobs. Payloads are serialized by the {@link PayloadConverter} (JSON with the
 * application's Jackson mapper by default) and checked against the size limit before
 * anything is written.
 * <p>
 * Inside a Spring-managed transaction an enqueue waits for the commit and is dropped on
 * rollback (see {@link #setEnqueueAfterCommit} and
 * {@link EnqueueOptions#withAfterCommit}). A write that fails at commit time is thrown to
 * the caller of the commit as an {@link EnqueueAfterCommitException}: the transaction
 * stays committed, and the caller is the one who can act on it (retry, compensate,
 * alert).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqTemplate implements EchoMqOperations {

	private final Enqueues enqueues;

	private final Flows flows;

	private final Batches batches;

	private final Results results;

	private final Awaits awaits;

	private final PayloadConverter converter;

	private final long maxPayloadBytes;

	private final Function<String, Integer> defaultMaxAttempts;

	private final EnqueueCallbacks callbacks;

	private volatile boolean enqueueAfterCommit = true;

	private final Schedules schedules;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	private final PartitionedWrites partitioned = new PartitionedWrites();

	private volatile QueueEncryption encryption = QueueEncryption.none();

	private final Map<String, RuntimeException> refused = new java.util.concurrent.ConcurrentHashMap<>();

	private final Map<String, Durability> durabilities = new java.util.concurrent.ConcurrentHashMap<>();

	private final ReplicaAcknowledgements acknowledgements;

	/**
	 * Create a template.
	 * @param engine the engine
	 * @param converter the payload converter
	 * @param maxPayloadBytes the largest serialized payload accepted
	 * @param defaultMaxAttempts the attempt budget of a queue when the options name none
	 * @param interceptors callbacks that may add row fields (such as trace headers)
	 */
	public EchoMqTemplate(EchoMqEngine engine, PayloadConverter converter, long maxPayloadBytes,
			Function<String, Integer> defaultMaxAttempts, List<EnqueueInterceptor> interceptors) {
		Engine jobs = Engine.of(engine);
		Assert.notNull(converter, "'converter' must not be null");
		Assert.isTrue(maxPayloadBytes > 0, "'maxPayloadBytes' must be positive");
		this.enqueues = jobs.enqueues();
		this.flows = jobs.flows();
		this.batches = jobs.batches();
		this.results = jobs.results();
		this.awaits = jobs.awaits();
		this.converter = converter;
		this.maxPayloadBytes = maxPayloadBytes;
		this.defaultMaxAttempts = defaultMaxAttempts;
		this.callbacks = new EnqueueCallbacks(interceptors);
		this.schedules = new Schedules(jobs);
		this.acknowledgements = new ReplicaAcknowledgements(jobs.executor());
	}

	@Override
	public JobId enqueue(String queue, Object payload) {
		return enqueue(queue, payload, EnqueueOptions.defaults());
	}

	@Override
	public JobId enqueue(String queue, Object payload, EnqueueOptions options) {
		Keyspace.validateQueueName(queue);
		checkNotRefused(queue);
		if (payload == null) {
			throw new IllegalArgumentException("Payload for queue '" + queue + "' must not be null");
		}
		if (options != null && options.unique() != null) {
			String text = serialize(queue, payload);
			JobId id = this.partitioned.mintUnique(this.partitioning.forQueue(queue), options);
			if (deferred(options)) {
				AfterCommitEnqueues.defer(this, queue, List.of(id), () -> writeUnique(queue, id, text, options));
				return id;
			}
			return writeUnique(queue, id, text, options).id();
		}
		return enqueueAll(queue, List.of(payload), options).get(0);
	}

	@Override
	public EnqueueResult enqueueUnique(String queue, Object payload, EnqueueOptions options) {
		Keyspace.validateQueueName(queue);
		checkNotRefused(queue);
		Assert.notNull(options, "'options' must not be null");
		if (options.unique() == null) {
			throw new IllegalArgumentException("enqueueUnique to queue '" + queue
					+ "' needs options with a unique key (withUniqueKey, withThrottle or withDebounce)");
		}
		if (payload == null) {
			throw new IllegalArgumentException("Payload for queue '" + queue + "' must not be null");
		}
		String text = serialize(queue, payload);
		if (deferred(options)) {
			throw new IllegalStateException("enqueueUnique to queue '" + queue
					+ "' inside a transaction would wait for the commit, so its outcome is unknown now: "
					+ "use EnqueueOptions.withAfterCommit(false), or enqueue(...) which defers and returns the id");
		}
		JobId id = this.partitioned.mintUnique(this.partitioning.forQueue(queue), options);
		return writeUnique(queue, id, text, options);
	}

	private boolean deferred(EnqueueOptions options) {
		boolean afterCommit = (options.afterCommit() != null) ? options.afterCommit() : this.enqueueAfterCommit;
		return afterCommit && AfterCommitEnqueues.transactionActive();
	}

	private String serialize(String queue, Object payload) {
		String text = this.converter.write(payload);
		long size = PayloadText.utf8Length(queue, text);
		if (this.encryption.isEncrypted(queue)) {
			text = this.encryption.seal(queue, text);
			size = text.length();
		}
		if (size > this.maxPayloadBytes) {
			throw new PayloadTooLargeException(queue, size, this.maxPayloadBytes);
		}
		return text;
	}

	@Override
	public List<JobId> enqueueAll(String queue, Collection<?> payloads) {
		return enqueueAll(queue, payloads, EnqueueOptions.defaults());
	}

	@Override
	public List<JobId> enqueueAll(String queue, Collection<?> payloads, EnqueueOptions options) {
		Keyspace.validateQueueName(queue);
		checkNotRefused(queue);
		Assert.notNull(payloads, "'payloads' must not be null");
		Assert.notNull(options, "'options' must not be null");
		UniqueKey unique = options.unique();
		if (unique != null) {
			throw new IllegalArgumentException("A unique key ('" + unique.name() + "') names one job: enqueue it with "
					+ "enqueue or enqueueUnique, not enqueueAll of " + payloads.size() + " to queue '" + queue + "'");
		}
		List<String> texts = new ArrayList<>(payloads.size());
		for (Object payload : payloads) {
			if (payload == null) {
				throw new IllegalArgumentException("Payload " + (texts.size() + 1) + " of " + payloads.size()
						+ " for queue '" + queue + "' must not be null");
			}
			texts.add(serialize(queue, payload));
		}
		if (texts.isEmpty()) {
			return List.of();
		}
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		int[] routes = this.partitioned.route(partitions, options, texts.size());
		List<JobId> ids = new ArrayList<>(texts.size());
		for (int i = 0; i < texts.size(); i++) {
			ids.add((routes != null) ? JobId.mint(routes[i]) : JobId.mint());
		}
		boolean deferred = deferred(options);
		// a deferred write has handed its ids out already: its jobs stay in the
		// partitions they name
		boolean failover = !deferred && !isKeyed(options);
		Runnable writer = (routes != null)
				? () -> this.partitioned.write(partitions, routes, ids, texts, failover,
						(name, shareIds, shareTexts) -> write(partitions.queue(), name, shareIds, shareTexts, options))
				: () -> write(queue, queue, ids, texts, options);
		if (deferred) {
			AfterCommitEnqueues.defer(this, queue, ids, writer);
		}
		else {
			writer.run();
		}
		return ids;
	}

	private static boolean isKeyed(EnqueueOptions options) {
		return options.partitionKey() != null || options.lane() != null || options.unique() != null;
	}

	private void write(String queue, String engineQueue, List<JobId> ids, List<String> texts, EnqueueOptions options) {
		durably(queue, () -> this.callbacks.intercepted(queue, (fields) -> {
			this.enqueues.enqueueAll(engineQueue, ids, texts, spec(queue, options, fields));
			return ids;
		}, (written) -> written), (written) -> written);
	}

	private <T> T durably(String queue, Supplier<T> write, Function<T, List<JobId>> written) {
		Durability durability = this.durabilities.get(queue);
		if (durability == null) {
			return write.get();
		}
		return this.acknowledgements.write(queue, durability, write, written);
	}

	private EnqueueResult writeUnique(String queue, JobId id, String text, EnqueueOptions options) {
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		String engineQueue = partitions.isPartitioned() ? partitions.name(id.partition()) : queue;
		try {
			return durably(queue, () -> this.callbacks.intercepted(queue,
					(fields) -> this.enqueues.enqueueUnique(engineQueue, id, text, spec(queue, options, fields)),
					(result) -> result.duplicate() ? List.of() : List.of(result.id())),
					(result) -> List.of(result.id()));
		}
		catch (RuntimeException ex) {
			if (partitions.isPartitioned() && ServerFailures.isUnavailable(ex)) {
				throw PartitionedWrites.unavailable(partitions, id.partition(), ex);
			}
			throw ex;
		}
	}

	@Override
	public FlowJob flow(FlowSpec spec) {
		Assert.notNull(spec, "'spec' must not be null");
		FlowWrites writes = new FlowWrites(this.enqueues, this.flows, this.batches, this.partitioning,
				(queue, payload) -> {
					Keyspace.validateQueueName(queue);
					checkNotRefused(queue);
					return serialize(queue, payload);
				}, (queue, options) -> spec(queue, options, Map.of()));
		List<FlowWrites.Node> order = writes.plan(spec);
		if (deferred(spec.options())) {
			AfterCommitEnqueues.defer(this, spec.queue(), order.stream().map(FlowWrites.Node::id).toList(),
					() -> writes.write(order));
		}
		else {
			writes.write(order);
		}
		return FlowWrites.job(order.get(0));
	}

	@Override
	public FlowJob chain(List<FlowSpec> steps) {
		Assert.notNull(steps, "'steps' must not be null");
		if (steps.size() < 2) {
			throw new IllegalArgumentException("A chain has at least two steps, was " + steps.size());
		}
		FlowSpec chain = null;
		for (FlowSpec step : steps) {
			Assert.notNull(step, "'steps' must not hold null");
			if (!step.children().isEmpty()) {
				throw new IllegalArgumentException(
						"A step of a chain (queue '" + step.queue() + "') cannot have children");
			}
			chain = (chain != null) ? step.child(chain) : step;
		}
		return flow(chain);
	}

	@Override
	public BatchJob batch(BatchSpec spec) {
		Assert.notNull(spec, "'spec' must not be null");
		BatchWrites writes = batchWrites();
		BatchWrites.Plan plan = writes.plan(spec);
		writes.write(plan);
		return BatchWrites.batchJob(plan);
	}

	@Override
	public List<FlowJob> addToBatch(String queue, JobId batch, List<FlowSpec> jobs) {
		Assert.notNull(batch, "'batch' must not be null");
		Assert.notNull(jobs, "'jobs' must not be null");
		Keyspace.validateQueueName(queue);
		BatchWrites writes = batchWrites();
		List<BatchWrites.Job> planned = writes.jobs(jobs);
		writes.add(queue, batch, planned, new ArrayList<>(), null);
		return planned.stream().map(BatchWrites::flowJob).toList();
	}

	@Override
	public void sealBatch(String queue, JobId batch) {
		Assert.notNull(batch, "'batch' must not be null");
		Keyspace.validateQueueName(queue);
		this.batches.seal(queue, batch);
	}

	@Override
	public @Nullable BatchStatus batchStatus(String queue, JobId batch) {
		Assert.notNull(batch, "'batch' must not be null");
		Keyspace.validateQueueName(queue);
		return BatchWrites.status(queue, batch, this.batches.status(queue, batch));
	}

	private BatchWrites batchWrites() {
		return new BatchWrites(this.enqueues, this.flows, this.batches, this.partitioning, (queue, payload) -> {
			Keyspace.validateQueueName(queue);
			checkNotRefused(queue);
			return serialize(queue, payload);
		}, (queue, options) -> spec(queue, options, Map.of()));
	}

	@Override
	public boolean schedule(String queue, String name, ScheduleSpec spec, Object payload) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		if (spec == null) {
			throw new InvalidScheduleException("Schedule '" + name + "' needs a spec (cron or every)");
		}
		if (payload == null) {
			throw new InvalidScheduleException("Schedule '" + name + "' needs a payload, was null");
		}
		String text = serialize(queue, payload);
		return this.schedules.put(new ScheduleDefinition(queue, name, spec, text, ScheduleOrigin.API));
	}

	@Override
	public boolean unschedule(String queue, String name) {
		ScheduleDefinition.validateQueue(name, queue);
		return this.schedules.remove(queue, name);
	}

	@Override
	public List<ScheduleState> schedules() {
		List<ScheduleState> all = new ArrayList<>();
		for (String queue : this.schedules.queues()) {
			all.addAll(this.schedules.list(queue));
		}
		return all;
	}

	@Override
	public List<ScheduleState> schedules(String queue) {
		Keyspace.validateQueueName(queue);
		return this.schedules.list(queue);
	}

	@Override
	public <T> @Nullable T result(String queue, JobId id, Class<T> type) {
		return type.cast(result(queue, id, (Type) type));
	}

	@Override
	public @Nullable Object result(String queue, JobId id, Type type) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(id, "'id' must not be null");
		Assert.notNull(type, "'type' must not be null");
		String text = this.results.read(this.partitioning.forQueue(queue).nameOf(id), id);
		if (text == null) {
			return null;
		}
		try {
			return this.converter.read(this.encryption.open(queue, text), type);
		}
		catch (PayloadDecryptionException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new PayloadConversionException("Result of job " + id + " on queue '" + queue + "' cannot be read as "
					+ type.getTypeName() + ": " + ex.getMessage(), ex);
		}
	}

	@Override
	public <T> CompletableFuture<@Nullable T> resultOf(String queue, JobId id, Class<T> type, Duration timeout) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(id, "'id' must not be null");
		Assert.notNull(type, "'type' must not be null");
		return this.awaits.await(this.partitioning.forQueue(queue).nameOf(id), id, timeout)
			.thenApply((text) -> (text != null) ? type.cast(readResult(queue, id, text, type)) : null);
	}

	@Override
	public <T> @Nullable T await(String queue, JobId id, Class<T> type, Duration timeout) {
		try {
			return resultOf(queue, id, type, timeout).get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new EchoMqException("Interrupted while awaiting job " + id, ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() instanceof CompletionException completion && completion.getCause() != null)
					? completion.getCause() : ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new EchoMqException("Awaiting job " + id + " failed", ex);
		}
	}

	@Override
	public <T> CompletableFuture<@Nullable T> enqueueForResult(String queue, Object payload, Class<T> type,
			Duration timeout) {
		JobId id = enqueue(queue, payload, EnqueueOptions.defaults().withAfterCommit(false));
		return resultOf(queue, id, type, timeout);
	}

	private Object readResult(String queue, JobId id, String text, Type type) {
		try {
			return this.converter.read(text, type);
		}
		catch (RuntimeException ex) {
			throw new PayloadConversionException("Result of job " + id + " on queue '" + queue + "' cannot be read as "
					+ type.getTypeName() + ": " + ex.getMessage(), ex);
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
	 * Set how many partitions each queue has: a job for a partitioned queue goes to the
	 * partition of its {@linkplain EnqueueOptions#withPartitionKey partition key}, or
	 * round-robin, and its id names that partition ({@link JobId#partition()}).
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	/**
	 * Set how long an enqueue of jobs with no partition key, lane or unique key keeps
	 * failing over while every partition refuses it (a cluster is down from a master's
	 * failure until its replica is promoted). 5 seconds by default; zero tries each
	 * partition once.
	 * @param timeout the longest wait
	 */
	public void setEnqueueFailoverTimeout(Duration timeout) {
		Assert.isTrue(timeout != null && !timeout.isNegative(), "'timeout' must not be null or negative");
		this.partitioned.setFailoverTimeout(timeout);
	}

	/**
	 * Refuse every enqueue to a queue from now on, throwing {@code reason}: its partition
	 * count changed under this application
	 * ({@link io.echomq.core.internal.PartitionCountCheck#renew}), so what it would write
	 * would be stranded.
	 * @param queue the logical queue name
	 * @param reason what enqueues throw
	 */
	public void refuse(String queue, RuntimeException reason) {
		Assert.notNull(reason, "'reason' must not be null");
		this.refused.put(Keyspace.validateQueueName(queue), reason);
	}

	/**
	 * Make every enqueue to a queue wait until replicas acknowledged it ({@code WAIT} on
	 * a connection kept for these enqueues), or throw a
	 * {@link io.echomq.core.ReplicationTimeoutException} after the durability's timeout,
	 * the jobs written on the primary. Not supported on a Redis Cluster. Jobs the server
	 * moves itself (schedule occurrences, retries) are not waited for.
	 * @param queue the logical queue name
	 * @param durability the replicas and timeout, or {@code null} to stop waiting
	 */
	public void setDurability(String queue, @Nullable Durability durability) {
		Keyspace.validateQueueName(queue);
		if (durability == null) {
			this.durabilities.remove(queue);
		}
		else {
			this.durabilities.put(queue, durability);
		}
	}

	/**
	 * Return the durability of a queue.
	 * @param queue the logical queue name
	 * @return its durability, or {@code null} when its enqueues do not wait for replicas
	 */
	public @Nullable Durability getDurability(String queue) {
		return this.durabilities.get(queue);
	}

	private void checkNotRefused(String queue) {
		RuntimeException reason = this.refused.get(queue);
		if (reason != null) {
			throw reason;
		}
	}

	/**
	 * Set which queues encrypt their payloads: the text the converter writes is encrypted
	 * before it is checked against the size limit and stored, and results read back are
	 * decrypted.
	 * @param encryption the encrypted queues
	 */
	public void setEncryption(QueueEncryption encryption) {
		Assert.notNull(encryption, "'encryption' must not be null");
		this.encryption = encryption;
	}

	/**
	 * Return which queues encrypt their payloads.
	 * @return the encrypted queues
	 */
	public QueueEncryption getEncryption() {
		return this.encryption;
	}

	/**
	 * Return how many partitions each queue has.
	 * @return the partitioning
	 */
	public QueuePartitioning getPartitioning() {
		return this.partitioning;
	}

	private EnqueueSpec spec(String queue, EnqueueOptions options, Map<String, String> fields) {
		int maxAttempts = (options.maxAttempts() != null) ? options.maxAttempts()
				: this.defaultMaxAttempts.apply(queue);
		return EnqueueSpec.of(options, maxAttempts, fields);
	}

}
