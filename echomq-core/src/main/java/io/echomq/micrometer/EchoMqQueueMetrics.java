package io.echomq.micrometer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.Guard;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.Backlog;
import io.echomq.inspect.QueueBacklogs;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.support.internal.ErrorText;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;
import org.springframework.util.Assert;

/**
 * Queue gauges: {@code echomq.queue.jobs} (tags {@code queue}, {@code state} =
 * {@code pending|active|schedule|dead}), {@code echomq.queue.lanes} (tag {@code queue}:
 * how many fair lanes have ready work; lane keys are not tags, they can be as many as
 * tenants), {@code echomq.queue.lanes.deepest} (tag {@code queue}: the pending jobs of
 * its fullest lane, 0 without lanes), {@code echomq.queue.limit} (tags {@code queue},
 * {@code limit} = {@code max-active|rate|lane-max-active|lane-rate}: the flow limits this
 * application's listener applies, rates per second), {@code echomq.queue.limit.used} (the
 * same tags for {@code max-active} and {@code rate}: the queue's active jobs, and the
 * jobs started on every node in the rate limit's window that ends at the sample, on
 * server time, per second), {@code echomq.queue.batches} (tag {@code queue}: the open and
 * sealed batches whose home queue it is) and {@code echomq.listener.in.flight} (tag
 * {@code queue}). With a {@link QueueBacklogs} ({@link #setBacklogs}), the scaling signal
 * per queue (tag {@code queue}, summed over partitions and lanes):
 * {@code echomq.queue.backlog} (jobs that could start now),
 * {@code echomq.queue.backlog.age} (seconds the longest-waiting of them has been ready)
 * and {@code echomq.queue.backlog.drain.time} (seconds to run them at the completion rate
 * of the last minutes; NaN when none completed). Queue sizes come from a sample taken
 * every {@code sampleInterval} on a thread of its own, for every queue of the
 * {@link EchoMqQueueCatalog}; a gauge never calls Redis. A queue whose sample fails keeps
 * its last values.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqQueueMetrics implements MeterBinder, SmartLifecycle {

	private static final LogAccessor logger = new LogAccessor(EchoMqQueueMetrics.class);

	private final QueueInspector inspector;

	private final EchoMqQueueCatalog catalog;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final Duration sampleInterval;

	private final List<Bound> bound = new CopyOnWriteArrayList<>();

	private final Guard guard = new Guard();

	private volatile Map<String, QueueStats> sample = Map.of();

	private volatile Map<String, Map<String, QueueStats>> partitionSample = Map.of();

	private volatile Map<String, Long> startsSample = Map.of();

	private volatile Map<String, Backlog> backlogSample = Map.of();

	private @Nullable QueueBacklogs backlogs;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	private volatile boolean failing;

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Create the gauges.
	 * @param inspector reads the queue sizes
	 * @param catalog the queues to sample
	 * @param listeners the listener registry, for in-flight counts, or {@code null}
	 * @param sampleInterval the delay between two samples
	 */
	public EchoMqQueueMetrics(QueueInspector inspector, EchoMqQueueCatalog catalog,
			@Nullable EchoJobListenerRegistry listeners, Duration sampleInterval) {
		Assert.notNull(inspector, "'inspector' must not be null");
		Assert.notNull(catalog, "'catalog' must not be null");
		Assert.isTrue(sampleInterval != null && sampleInterval.toMillis() > 0, "'sampleInterval' must be positive");
		this.inspector = inspector;
		this.catalog = catalog;
		this.listeners = listeners;
		this.sampleInterval = sampleInterval;
	}

	/**
	 * Set how many partitions each queue has: {@code echomq.queue.jobs} shows a
	 * partitioned queue as the sums over its partitions, and
	 * {@code echomq.queue.partition.jobs} (tags {@code queue}, {@code partition},
	 * {@code state}) each partition.
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	/**
	 * Publish each queue's backlog, the signal to scale workers on, read with the given
	 * reader at every sample.
	 * @param backlogs reads the backlogs
	 * @since 0.5.0
	 */
	public void setBacklogs(QueueBacklogs backlogs) {
		Assert.notNull(backlogs, "'backlogs' must not be null");
		this.backlogs = backlogs;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		MultiGauge jobs = multiGauge(registry, "echomq.queue.jobs", "Jobs in each location of a queue, as last sampled",
				BaseUnits.TASKS);
		MultiGauge partitionJobs = multiGauge(registry, "echomq.queue.partition.jobs",
				"Jobs in each location of each partition of a partitioned queue, as last sampled", BaseUnits.TASKS);
		MultiGauge lanes = multiGauge(registry, "echomq.queue.lanes",
				"Fair lanes of a queue with ready work, as last sampled", null);
		MultiGauge deepestLane = multiGauge(registry, "echomq.queue.lanes.deepest",
				"Pending jobs of a queue's fullest fair lane, as last sampled", BaseUnits.TASKS);
		MultiGauge limits = multiGauge(registry, "echomq.queue.limit",
				"Cluster-wide flow limits this application's listener applies (rates per second)", null);
		MultiGauge limitsUsed = multiGauge(registry, "echomq.queue.limit.used",
				"Current use of each flow limit across every node: active jobs, and starts in the rate "
						+ "window per second, as last sampled",
				null);
		MultiGauge batches = multiGauge(registry, "echomq.queue.batches",
				"Open and sealed batches whose home queue this is, as last sampled", null);
		Backlogs backlog = new Backlogs(
				multiGauge(registry, "echomq.queue.backlog",
						"Jobs of a queue that could start now: pending, in lanes and due scheduled, as last sampled",
						BaseUnits.TASKS),
				multiGauge(registry, "echomq.queue.backlog.age",
						"How long the longest-waiting job a queue could start now has been ready, as last sampled",
						"seconds"),
				multiGauge(registry, "echomq.queue.backlog.drain.time",
						"Time to run a queue's backlog at its completion rate of the last minutes (NaN without one)",
						"seconds"));
		Bound created = new Bound(registry, jobs, partitionJobs, lanes, deepestLane, limits, limitsUsed, batches,
				backlog, ConcurrentHashMap.newKeySet());
		this.bound.add(created);
		publish(created, this.sample);
	}

	private static MultiGauge multiGauge(MeterRegistry registry, String name, String description,
			@Nullable String baseUnit) {
		MultiGauge.Builder builder = MultiGauge.builder(name).description(description);
		if (baseUnit != null) {
			builder.baseUnit(baseUnit);
		}
		return builder.register(registry);
	}

	/**
	 * Sample every queue of the catalog now and update the gauges.
	 */
	public void sample() {
		Map<String, QueueStats> previous = this.sample;
		Map<String, QueueStats> next = new LinkedHashMap<>();
		Map<String, Map<String, QueueStats>> nextPartitions = new LinkedHashMap<>();
		RuntimeException failure = null;
		for (String queue : this.catalog.queues()) {
			try {
				PartitionedStats stats = PartitionedStats.read(this.inspector, this.partitioning.forQueue(queue));
				next.put(queue, stats.total());
				if (stats.isPartitioned()) {
					nextPartitions.put(queue, stats.partitions());
				}
			}
			catch (RuntimeException ex) {
				failure = ex;
				QueueStats last = previous.get(queue);
				if (last != null) {
					next.put(queue, last);
				}
				Map<String, QueueStats> lastPartitions = this.partitionSample.get(queue);
				if (lastPartitions != null) {
					nextPartitions.put(queue, lastPartitions);
				}
			}
		}
		Map<String, Backlog> nextBacklogs = new LinkedHashMap<>();
		QueueBacklogs reader = this.backlogs;
		if (reader != null) {
			for (String queue : this.catalog.queues()) {
				try {
					nextBacklogs.put(queue, reader.read(this.partitioning.forQueue(queue)));
				}
				catch (RuntimeException ex) {
					failure = ex;
					Backlog last = this.backlogSample.get(queue);
					if (last != null) {
						nextBacklogs.put(queue, last);
					}
				}
			}
		}
		this.backlogSample = Collections.unmodifiableMap(nextBacklogs);
		Map<String, Long> starts = new LinkedHashMap<>();
		try {
			sampleStarts(starts);
		}
		catch (RuntimeException ex) {
			failure = ex;
			this.startsSample.forEach(starts::putIfAbsent);
		}
		this.startsSample = Collections.unmodifiableMap(starts);
		logOutcome(failure);
		Map<String, QueueStats> published = Collections.unmodifiableMap(next);
		this.partitionSample = Collections.unmodifiableMap(nextPartitions);
		this.sample = published;
		for (Bound each : this.bound) {
			publish(each, published);
		}
	}

	/**
	 * The starts in the rate window of each listener queue with a rate limit, summed over
	 * its partitions (each limits its share).
	 */
	private void sampleStarts(Map<String, Long> starts) {
		if (this.listeners == null) {
			return;
		}
		for (String queue : this.listeners.getQueues()) {
			QueueListenerContainer container = this.listeners.getContainer(queue);
			FlowLimits.RateLimit rate = (container != null) ? container.getSettings().limits().rateLimit() : null;
			if (rate != null) {
				long started = 0;
				for (String name : this.partitioning.forQueue(queue).names()) {
					started += this.inspector.startedInWindow(name, rate.period());
				}
				starts.put(queue, started);
			}
		}
	}

	/**
	 * Return the last sample.
	 * @return the queue stats by queue
	 */
	public Map<String, QueueStats> getSample() {
		return this.sample;
	}

	private void logOutcome(@Nullable RuntimeException failure) {
		if (failure != null && !this.failing) {
			this.failing = true;
			logger.warn(() -> "Cannot sample EchoMQ queue sizes (" + ErrorText.of(failure)
					+ "); the gauges keep their last values");
			logger.debug(failure, "Cannot sample EchoMQ queue sizes");
		}
		else if (failure != null) {
			logger.debug(failure, "Cannot sample EchoMQ queue sizes");
		}
		else if (this.failing) {
			this.failing = false;
			logger.info("Sampling EchoMQ queue sizes again");
		}
	}

	private void publish(Bound target, Map<String, QueueStats> stats) {
		List<MultiGauge.Row<?>> rows = new ArrayList<>(stats.size() * JobState.values().length);
		stats.forEach((queue, queueStats) -> {
			for (JobState state : JobState.values()) {
				rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "state", state.value()), queueStats.count(state)));
			}
		});
		target.jobs.register(rows, true);
		List<MultiGauge.Row<?>> partitionRows = new ArrayList<>();
		this.partitionSample.forEach((queue, partitions) -> partitions.forEach((partition, partitionStats) -> {
			for (JobState state : JobState.values()) {
				partitionRows.add(
						MultiGauge.Row.of(
								Tags.of("queue", queue, "partition",
										Integer.toString(QueuePartitions.indexOf(partition)), "state", state.value()),
								partitionStats.count(state)));
			}
		}));
		target.partitionJobs.register(partitionRows, true);
		List<MultiGauge.Row<?>> laneRows = new ArrayList<>(stats.size());
		stats.forEach((queue, queueStats) -> laneRows
			.add(MultiGauge.Row.of(Tags.of("queue", queue), queueStats.lanes().size())));
		target.lanes.register(laneRows, true);
		List<MultiGauge.Row<?>> deepestRows = new ArrayList<>(stats.size());
		stats.forEach((queue, queueStats) -> deepestRows.add(MultiGauge.Row.of(Tags.of("queue", queue),
				queueStats.lanes().values().stream().mapToLong(Long::longValue).max().orElse(0))));
		target.deepestLane.register(deepestRows, true);
		List<MultiGauge.Row<?>> batchRows = new ArrayList<>(stats.size());
		stats.forEach(
				(queue, queueStats) -> batchRows.add(MultiGauge.Row.of(Tags.of("queue", queue), queueStats.batches())));
		target.batches.register(batchRows, true);
		target.backlog.register(this.backlogSample);
		List<MultiGauge.Row<?>> limitRows = new ArrayList<>();
		List<MultiGauge.Row<?>> usedRows = new ArrayList<>();
		if (this.listeners != null) {
			for (String queue : this.listeners.getQueues()) {
				QueueListenerContainer container = this.listeners.getContainer(queue);
				if (container != null) {
					addLimits(limitRows, queue, container.getSettings().limits());
					addUse(usedRows, queue, container.getSettings().limits(), stats.get(queue),
							this.startsSample.get(queue));
				}
			}
		}
		target.limits.register(limitRows, true);
		target.limitsUsed.register(usedRows, true);
		if (this.listeners != null) {
			for (String queue : this.listeners.getQueues()) {
				if (!target.inFlightQueues().add(queue)) {
					continue;
				}
				Gauge.builder("echomq.listener.in.flight", this.listeners, (registry) -> inFlight(registry, queue))
					.description("Jobs claimed by this application's listener and not yet settled")
					.baseUnit(BaseUnits.TASKS)
					.tag("queue", queue)
					.strongReference(true)
					.register(target.registry);
			}
		}
	}

	private static double inFlight(EchoJobListenerRegistry registry, String queue) {
		QueueListenerContainer container = registry.getContainer(queue);
		return (container != null) ? container.inFlight() : 0;
	}

	@Override
	public void start() {
		this.guard.run(() -> {
			if (this.executor != null) {
				return;
			}
			ScheduledThreadPoolExecutor created = new ScheduledThreadPoolExecutor(1, (runnable) -> {
				Thread thread = new Thread(runnable, "echomq-metrics-sampler");
				thread.setDaemon(true);
				return thread;
			});
			created.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
			created.scheduleWithFixedDelay(this::sampleQuietly, 0, this.sampleInterval.toMillis(),
					TimeUnit.MILLISECONDS);
			this.executor = created;
		});
	}

	private void sampleQuietly() {
		try {
			sample();
		}
		catch (Throwable ex) {
			// never let a failure cancel the fixed-delay schedule
			logger.debug(ex, "EchoMQ queue sampling failed");
		}
	}

	@Override
	public void stop() {
		this.guard.run(() -> {
			if (this.executor != null) {
				this.executor.shutdownNow();
				this.executor = null;
			}
		});
	}

	@Override
	public boolean isRunning() {
		return this.guard.get(() -> this.executor != null);
	}

	private static void addLimits(List<MultiGauge.Row<?>> rows, String queue, FlowLimits limits) {
		if (limits.maxActive() != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "max-active"), limits.maxActive()));
		}
		if (limits.rateLimit() != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "rate"), perSecond(limits.rateLimit())));
		}
		if (limits.laneMaxActive() != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "lane-max-active"), limits.laneMaxActive()));
		}
		if (limits.laneRateLimit() != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "lane-rate"),
					perSecond(limits.laneRateLimit())));
		}
	}

	private static void addUse(List<MultiGauge.Row<?>> rows, String queue, FlowLimits limits,
			@Nullable QueueStats stats, @Nullable Long started) {
		if (limits.maxActive() != null && stats != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "max-active"), stats.active()));
		}
		FlowLimits.RateLimit rate = limits.rateLimit();
		if (rate != null && started != null) {
			rows.add(MultiGauge.Row.of(Tags.of("queue", queue, "limit", "rate"),
					started * 1000.0 / rate.period().toMillis()));
		}
	}

	private static double perSecond(FlowLimits.RateLimit rate) {
		return rate.limit() * 1000.0 / rate.period().toMillis();
	}

	private record Bound(MeterRegistry registry, MultiGauge jobs, MultiGauge partitionJobs, MultiGauge lanes,
			MultiGauge deepestLane, MultiGauge limits, MultiGauge limitsUsed, MultiGauge batches, Backlogs backlog,
			Set<String> inFlightQueues) {

	}

	private record Backlogs(MultiGauge runnable, MultiGauge age, MultiGauge drainTime) {

		void register(Map<String, Backlog> sample) {
			List<MultiGauge.Row<?>> runnableRows = new ArrayList<>(sample.size());
			List<MultiGauge.Row<?>> ageRows = new ArrayList<>(sample.size());
			List<MultiGauge.Row<?>> drainRows = new ArrayList<>(sample.size());
			sample.forEach((queue, backlog) -> {
				Tags tags = Tags.of("queue", queue);
				runnableRows.add(MultiGauge.Row.of(tags, backlog.runnable()));
				ageRows.add(MultiGauge.Row.of(tags, backlog.age().toMillis() / 1000.0));
				drainRows.add(MultiGauge.Row.of(tags, backlog.estimatedSeconds()));
			});
			this.runnable.register(runnableRows, true);
			this.age.register(ageRows, true);
			this.drainTime.register(drainRows, true);
		}

	}

}
