package io.echomq.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.echomq.EchoMqTemplate;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.CancelResult;
import io.echomq.core.EchoMqNode;
import io.echomq.core.EnqueueSpec;
import io.echomq.core.FlowLimits;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.JobView;
import io.echomq.core.Keyspace;
import io.echomq.core.NodeListener;
import io.echomq.core.PartitionedStats;
import io.echomq.core.QueueInspector;
import io.echomq.core.QueueNodes;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.QueueStats;
import io.echomq.core.StaleReason;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Engine;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.ScheduleTicker;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.util.Assert;

/**
 * What the dashboard reads and does, on the engine's own verbs: queue counts and
 * listeners, pages of each location, one job's row and timeline, and the actions (replay
 * a dead job, delete a waiting or finished job, run a scheduled job now, replay or purge
 * every dead job, pause and resume this node's listener, cancel a job, pause and resume a
 * queue cluster-wide, trigger a recurring schedule). A partitioned queue is shown as the
 * sums over its partitions with each partition's counts, its lanes and limits alongside
 * ({@link QueueFlow}); a job id goes to the partition it names. Technology-neutral: the
 * web layer maps it onto HTTP.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqDashboard {

	/** Most jobs one page shows. */
	public static final int MAX_PAGE = 100;

	/** Most dead jobs one "replay all" replays; the rest wait for the next one. */
	public static final int MAX_REPLAY_ALL = 1000;

	/** Longest payload preview in a page, in characters. */
	public static final int PREVIEW_LENGTH = 160;

	/**
	 * Most jobs a page of every partition of a partitioned queue reaches
	 * ({@code offset + limit}); one partition pages further.
	 */
	public static final int MAX_MERGED = QueueInspector.MAX_PAGE;

	private static final int REPLAY_BATCH = 100;

	private final Engine jobs;

	private final QueueInspector inspector;

	private final QueueNodes nodes;

	private final EchoMqQueueCatalog catalog;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final ToIntFunction<String> replayBudget;

	private final QueueHistory history;

	private final Sanitizer sanitizer;

	private final String node;

	private final @Nullable EchoMqTemplate template;

	private final @Nullable ScheduleTicker ticker;

	private final QueueFlows flows;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	private volatile Function<String, FlowLimits> limits = (queue) -> FlowLimits.none();

	/**
	 * Create a dashboard model without a template or a schedule tick: cancels and
	 * cluster-wide pauses go to the engine directly and no schedule is shown.
	 * @param jobs the engine
	 * @param catalog the queues to list
	 * @param listeners the listener registry of this node, or {@code null}
	 * @param replayBudget the attempt budget a replayed job of a queue gets
	 * @param history the per-minute history
	 * @param sanitizer sanitizes payloads and extra job fields
	 * @param node the name of this node, shown next to its listeners
	 */
	public EchoMqDashboard(Engine jobs, EchoMqQueueCatalog catalog, @Nullable EchoJobListenerRegistry listeners,
			ToIntFunction<String> replayBudget, QueueHistory history, Sanitizer sanitizer, String node) {
		this(jobs, catalog, listeners, replayBudget, history, sanitizer, node, null, null);
	}

	/**
	 * Create a dashboard model.
	 * @param jobs the engine
	 * @param catalog the queues to list
	 * @param listeners the listener registry of this node, or {@code null}
	 * @param replayBudget the attempt budget a replayed job of a queue gets
	 * @param history the per-minute history
	 * @param sanitizer sanitizes payloads and extra job fields
	 * @param node the name of this node, shown next to its listeners
	 * @param template the template cancels and cluster-wide pauses go through, so that
	 * its listeners (the meters) hear of them, or {@code null} to go to the engine
	 * directly
	 * @param ticker the schedule tick of this node, which lists the schedules and
	 * triggers them, or {@code null} if it runs none
	 */
	public EchoMqDashboard(Engine jobs, EchoMqQueueCatalog catalog, @Nullable EchoJobListenerRegistry listeners,
			ToIntFunction<String> replayBudget, QueueHistory history, Sanitizer sanitizer, String node,
			@Nullable EchoMqTemplate template, @Nullable ScheduleTicker ticker) {
		Assert.notNull(jobs, "'jobs' must not be null");
		Assert.notNull(catalog, "'catalog' must not be null");
		Assert.notNull(replayBudget, "'replayBudget' must not be null");
		Assert.notNull(history, "'history' must not be null");
		Assert.notNull(sanitizer, "'sanitizer' must not be null");
		Assert.hasText(node, "'node' must not be empty");
		this.jobs = jobs;
		this.inspector = new QueueInspector(jobs);
		this.nodes = new QueueNodes(jobs);
		this.catalog = catalog;
		this.listeners = listeners;
		this.replayBudget = replayBudget;
		this.history = history;
		this.sanitizer = sanitizer;
		this.node = node;
		this.template = template;
		this.ticker = ticker;
		this.flows = new QueueFlows(jobs);
	}

	/**
	 * Set how many partitions each queue has: a partitioned queue is shown as the sums
	 * over its partitions with each partition's counts, its pages list the jobs of every
	 * partition, and a job id goes to the partition it names.
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	/**
	 * Set the configured flow limits of each queue, shown when this node has no listener
	 * of the queue (a listener's own limits are shown otherwise).
	 * @param limits the limits of a queue, {@link FlowLimits#none()} when it has none
	 */
	public void setLimits(Function<String, FlowLimits> limits) {
		Assert.notNull(limits, "'limits' must not be null");
		this.limits = limits;
	}

	/**
	 * Return the name of this node.
	 * @return the node name
	 */
	public String node() {
		return this.node;
	}

	/**
	 * Return every known queue with its counts and listener: per queue, the four
	 * {@code ZCARD}s and the {@code HGETALL} of its counters.
	 * @return the overview
	 */
	public Overview overview() {
		List<QueueSummary> queues = new ArrayList<>();
		for (String queue : this.catalog.queues()) {
			queues.add(summary(queue, stats(queue)));
		}
		return new Overview(this.node, this.history.isKept(), queues);
	}

	/**
	 * Return one queue.
	 * @param queue the queue
	 * @return the queue, or {@code null} if it is not known here and holds nothing
	 * @throws io.echomq.core.InvalidQueueNameException if the name is not valid
	 */
	public @Nullable QueueSummary queue(String queue) {
		Keyspace.validateQueueName(queue);
		PartitionedStats stats = stats(queue);
		if (!this.catalog.contains(queue) && isEmpty(stats.total())) {
			return null;
		}
		return summary(queue, stats);
	}

	/**
	 * Return a page of the jobs in one location, highest score first (see
	 * {@link QueueInspector#ids(String, JobState, int, int)}), with the queue.
	 * @param queue the queue, known here (see {@link #queue(String)})
	 * @param state the location
	 * @param offset how many to skip; 0, or less than the location holds
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @param show whether payloads are shown unsanitized
	 * @return the page, or {@code null} if the queue is not known
	 * @throws IllegalArgumentException if the offset or limit is out of range
	 */
	public @Nullable JobPage jobs(String queue, JobState state, int offset, int limit, boolean show) {
		return jobs(queue, state, offset, limit, show, null);
	}

	/**
	 * Return a page of the jobs in one location, of one partition or of them all. The
	 * page of every partition of a partitioned queue is a bounded merge (see
	 * {@link QueueInspector#jobs(QueuePartitions, JobState, int, int)}): its
	 * {@code offset + limit} is at most {@value #MAX_MERGED}; one partition pages as far
	 * as it goes.
	 * @param queue the queue, known here (see {@link #queue(String)})
	 * @param state the location
	 * @param offset how many to skip; 0, or less than the location holds
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @param show whether payloads are shown unsanitized
	 * @param partition the partition index, or {@code null} for every partition
	 * @return the page, or {@code null} if the queue is not known
	 * @throws IllegalArgumentException if the offset or limit is out of range
	 * @throws InvalidPartitionException if the queue has no such partition
	 */
	public @Nullable JobPage jobs(String queue, JobState state, int offset, int limit, boolean show,
			@Nullable Integer partition) {
		Assert.isTrue(offset >= 0, () -> "offset must not be negative, was " + offset);
		Assert.isTrue(limit > 0 && limit <= MAX_PAGE,
				() -> "limit must be between 1 and " + MAX_PAGE + ", was " + limit);
		Keyspace.validateQueueName(queue);
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		String engineName = (partition != null) ? partitions.name(partition) : null;
		QueueSummary summary = queue(queue);
		if (summary == null) {
			return null;
		}
		long total = (engineName != null && partitions.isPartitioned()) ? this.inspector.stats(engineName).count(state)
				: summary.counts().getOrDefault(state.value(), 0L);
		Assert.isTrue(offset == 0 || offset < total,
				() -> "offset " + offset + " is past the last job: " + state.value() + " holds " + total);
		boolean merged = engineName == null && partitions.isPartitioned();
		Assert.isTrue(!merged || offset + limit <= MAX_MERGED,
				() -> "offset + limit must be at most " + MAX_MERGED + " across the " + partitions.count()
						+ " partitions of '" + queue + "', was " + (offset + limit)
						+ ": choose a partition (partition=0-" + (partitions.count() - 1) + ") to page further");
		List<JobView> views = (engineName != null) ? this.inspector.jobs(engineName, state, offset, limit)
				: this.inspector.jobs(partitions, state, offset, limit);
		List<JobItem> items = new ArrayList<>();
		Map<String, String> partitionOf = new LinkedHashMap<>();
		for (JobView view : views) {
			items.add(new JobItem(view.id().toString(), view.state().value(), view.attempts(), view.maxAttempts(),
					view.enqueuedAt().toEpochMilli(), (view.at() != null) ? view.at().toEpochMilli() : null,
					view.lastError(), preview(sanitize("payload", view.payload(), show)), view.claimedBy()));
			if (partitions.isPartitioned()) {
				partitionOf.put(view.id().toString(), view.queue());
			}
		}
		return new JobPage(summary, state.value(), offset, limit, total, items, partition, partitions.count(),
				merged ? MAX_MERGED : null, partitionOf);
	}

	/**
	 * Return one job: its row, sanitized, and a timeline from its timestamps.
	 * @param queue the queue
	 * @param id the job id
	 * @param show whether the payload and extra fields are shown unsanitized
	 * @return the job, or {@code null} if it has no row (completed and retired, or
	 * trimmed past its queue's retention, deleted, or unknown)
	 */
	public @Nullable JobDetail job(String queue, JobId id, boolean show) {
		Keyspace.validateQueueName(queue);
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		String engineName = partitions.nameOf(id);
		Map<String, String> row = this.inspector.row(engineName, id);
		if (row.isEmpty()) {
			return null;
		}
		String problem = null;
		Long at = null;
		try {
			JobView view = this.inspector.job(engineName, id);
			at = (view != null && view.at() != null) ? view.at().toEpochMilli() : null;
		}
		catch (IllegalArgumentException ex) {
			problem = "Unreadable row: " + ex.getMessage();
		}
		Map<String, @Nullable Object> fields = new LinkedHashMap<>();
		row.forEach((name, value) -> {
			if (!"payload".equals(name)) {
				fields.put(name, EnqueueSpec.RESERVED_FIELDS.contains(name) ? value : sanitize(name, value, show));
			}
		});
		String state = row.getOrDefault("state", "");
		Object payload = sanitize("payload", row.getOrDefault("payload", ""), show);
		return new JobDetail(queue, id.toString(), state, number(row.get("attempts")), number(row.get("released")),
				number(row.get("max_attempts")), row.get("last_error"), payload, fields, timeline(row, state, at),
				problem, partitions.isPartitioned() ? engineName : null, row.get(EchoMqNode.CLAIMED_BY_FIELD));
	}

	/**
	 * Find the queue of a job among the known queues: one {@code HGETALL} per queue.
	 * @param id the job id
	 * @return the queue, or {@code null} if no known queue has a row for it
	 */
	public @Nullable String findQueue(JobId id) {
		for (String queue : this.catalog.queues()) {
			QueuePartitions partitions = this.partitioning.forQueue(queue);
			if (partitions.isPartitioned() && id.partition() >= partitions.count()) {
				continue;
			}
			if (!this.inspector.row(partitions.nameOf(id), id).isEmpty()) {
				return queue;
			}
		}
		return null;
	}

	/**
	 * Return the per-minute history of every known queue.
	 * @param minutes how many minutes back, at most {@value QueueHistory#MAX_MINUTES}
	 * @return the history
	 */
	public History history(int minutes) {
		Assert.isTrue(minutes > 0 && minutes <= QueueHistory.MAX_MINUTES,
				() -> "minutes must be between 1 and " + QueueHistory.MAX_MINUTES + ", was " + minutes);
		Map<String, List<QueueHistory.Minute>> queues = new LinkedHashMap<>();
		if (this.history.isKept()) {
			for (String queue : this.catalog.queues()) {
				queues.put(queue, minutes(this.partitioning.forQueue(queue), minutes));
			}
		}
		return new History(this.history.isKept(), queues);
	}

	/**
	 * Replay a dead job: back to pending with a fresh budget of the queue's attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome replay(String queue, JobId id) {
		int budget = this.replayBudget.applyAsInt(queue);
		TransitionResult result = this.jobs.admin().replay(engineName(queue, id), id, budget);
		if (result.isApplied()) {
			return Outcome
				.done("Job " + id + " replayed: pending again, with a fresh budget of " + plural(budget, "attempt"), 1);
		}
		if (result.reason() == StaleReason.MALFORMED_ROW) {
			return malformed(id, "replayed", result.detail());
		}
		return notDead(queue, id, "replayed");
	}

	/**
	 * Delete a job with its row: pending, scheduled, dead or completed (within
	 * retention). An active job is refused: its worker holds a lease.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome delete(String queue, JobId id) {
		TransitionResult result = this.jobs.admin().delete(engineName(queue, id), id);
		if (result.isApplied()) {
			return Outcome.done("Job " + id + " deleted (it was " + stateLabel(result.state()) + ")", 1);
		}
		return switch (result.reason()) {
			case NOT_FOUND -> new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
			case MALFORMED_ROW -> malformed(id, "deleted", result.detail());
			case ACTIVE -> new Outcome(Outcome.Status.CONFLICT,
					"Job " + id + " is active: a worker holds its lease, so it cannot be deleted", 0);
			default -> new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not deleted: " + result.detail(), 0);
		};
	}

	/**
	 * Run a scheduled job now: to pending at once, whatever its run-at.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome runNow(String queue, JobId id) {
		String engineName = engineName(queue, id);
		TransitionResult result = this.jobs.admin().runNow(engineName, id);
		if (result.isApplied()) {
			return Outcome.done("Job " + id + " moved to pending: it runs as soon as a worker is free", 1);
		}
		if (result.reason() == StaleReason.MALFORMED_ROW) {
			return malformed(id, "run now", result.detail());
		}
		Map<String, String> row = this.inspector.row(engineName, id);
		if (row.isEmpty()) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
		}
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " is " + row.getOrDefault("state", "in no state")
				+ ", not scheduled: only scheduled jobs can be run now", 0);
	}

	private static String stateLabel(@Nullable JobState state) {
		return (state != null) ? state.value() : "gone";
	}

	/**
	 * Replay dead jobs, latest death first, looking at {@value #MAX_REPLAY_ALL} at most:
	 * one {@code ZREVRANGE} per 100 and one {@code replay} script per job. A job that
	 * left {@code dead} meanwhile is skipped.
	 * @param queue the queue
	 * @return the outcome, with how many were replayed
	 */
	public Outcome replayAllDead(String queue) {
		Keyspace.validateQueueName(queue);
		int budget = this.replayBudget.applyAsInt(queue);
		long replayed = 0;
		int looked = 0;
		long left = 0;
		for (String partition : this.partitioning.forQueue(queue).names()) {
			int skipped = 0;
			while (looked < MAX_REPLAY_ALL) {
				List<JobId> ids = this.inspector.ids(partition, JobState.DEAD, skipped, REPLAY_BATCH);
				if (ids.isEmpty()) {
					break;
				}
				for (JobId id : ids) {
					if (looked >= MAX_REPLAY_ALL) {
						break;
					}
					looked++;
					if (this.jobs.admin().replay(partition, id, budget).isApplied()) {
						replayed++;
					}
					else {
						skipped++;
					}
				}
			}
			left += this.inspector.stats(partition).dead();
		}
		String still = (left > 0) ? "; " + left + " still dead" : "";
		return Outcome.done("Replayed " + plural(replayed, "dead job") + still, replayed);
	}

	/**
	 * Delete every dead job of a queue.
	 * @param queue the queue
	 * @return the outcome, with how many were deleted
	 */
	public Outcome purgeDead(String queue) {
		Keyspace.validateQueueName(queue);
		long purged = 0;
		for (String partition : this.partitioning.forQueue(queue).names()) {
			purged += this.jobs.admin().purgeDead(partition);
		}
		return Outcome.done("Purged " + plural(purged, "dead job"), purged);
	}

	/**
	 * Pause this node's listener of a queue: it stops claiming, in-flight jobs go on.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome pause(String queue) {
		QueueListenerContainer container = container(queue);
		if (container == null) {
			return noListener(queue);
		}
		container.pause();
		return Outcome.done("Listener of '" + queue + "' paused on " + this.node, 1);
	}

	/**
	 * Resume this node's paused listener of a queue.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome resume(String queue) {
		QueueListenerContainer container = container(queue);
		if (container == null) {
			return noListener(queue);
		}
		container.resume();
		return Outcome.done("Listener of '" + queue + "' resumed on " + this.node, 1);
	}

	/**
	 * Cancel a job, whatever its state (see
	 * {@link io.echomq.core.internal.QueueAdmin#cancel(String, JobId)}): a pending,
	 * scheduled or dead job is removed with its row, a running job's handler is asked to
	 * stop and its outcome discarded.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome: done when cancelled or requested, not found for a finished or
	 * unknown job, a conflict when refused
	 */
	public Outcome cancel(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		CancelResult result = (this.template != null) ? this.template.cancel(queue, id)
				: this.jobs.admin().cancel(engineName(queue, id), id);
		return switch (result.outcome()) {
			case CANCELLED -> Outcome.done("Job " + id + " cancelled (it was " + stateLabel(result.state()) + ")", 1,
					result.outcome().name());
			case REQUESTED -> Outcome.done("Cancel of running job " + id + " requested: its worker stops the handler "
					+ "at the next lease renewal and discards its outcome", 1, result.outcome().name());
			case NOT_FOUND -> new Outcome(Outcome.Status.NOT_FOUND,
					"Queue '" + queue + "' has no job " + id + " to cancel: it finished or never existed", 0,
					result.outcome().name());
			case REFUSED -> new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not cancelled: " + result.detail(),
					0, result.outcome().name());
		};
	}

	/**
	 * Pause a queue cluster-wide: no node claims from it until it is resumed.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome pauseCluster(String queue) {
		Keyspace.validateQueueName(queue);
		boolean changed = false;
		if (this.template != null) {
			changed = this.template.pause(queue);
		}
		else {
			for (String partition : this.partitioning.forQueue(queue).names()) {
				changed |= this.jobs.admin().pause(partition, null, "paused");
			}
		}
		return Outcome.done(changed ? "Queue '" + queue + "' paused on every node"
				: "Queue '" + queue + "' was already paused on every node", changed ? 1 : 0);
	}

	/**
	 * Resume a queue paused cluster-wide.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome resumeCluster(String queue) {
		Keyspace.validateQueueName(queue);
		boolean changed = false;
		if (this.template != null) {
			changed = this.template.resume(queue);
		}
		else {
			for (String partition : this.partitioning.forQueue(queue).names()) {
				changed |= this.jobs.admin().resume(partition);
			}
		}
		return Outcome.done(changed ? "Queue '" + queue + "' resumed on every node"
				: "Queue '" + queue + "' was not paused cluster-wide", changed ? 1 : 0);
	}

	/**
	 * Return the recurring schedules the schedule tick of this node visits, with their
	 * last and next fire time.
	 * @return the schedules; none and not triggerable when this node runs no tick
	 */
	public ScheduleList schedules() {
		ScheduleTicker ticker = this.ticker;
		if (ticker == null) {
			return new ScheduleList(false, List.of());
		}
		List<ScheduleItem> items = new ArrayList<>();
		for (ScheduleState state : ticker.schedules()) {
			ScheduleDefinition definition = state.definition();
			items.add(new ScheduleItem(definition.queue(), definition.name(), describe(definition.spec()),
					definition.origin().name().toLowerCase(Locale.ROOT), millis(state.lastFire()),
					millis(state.nextFire())));
		}
		return new ScheduleList(true, items);
	}

	/**
	 * Enqueue an occurrence of a schedule now; its next fire time stays.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the outcome: not found when this node runs no tick or has no such schedule
	 * @throws io.echomq.schedule.InvalidScheduleException if the queue or name is invalid
	 */
	public Outcome trigger(String queue, String name) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		ScheduleTicker ticker = this.ticker;
		if (ticker == null) {
			return new Outcome(Outcome.Status.NOT_FOUND,
					"No schedule tick runs on " + this.node + " (echomq.schedule.enabled=false): nothing to trigger",
					0);
		}
		ScheduleFire fire = ticker.trigger(queue, name);
		if (fire == null) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no schedule '" + name + "'", 0);
		}
		return Outcome.done("Schedule '" + name + "' triggered: job " + fire.id() + " enqueued to '" + queue + "'", 1);
	}

	private static String describe(ScheduleSpec spec) {
		Duration every = spec.every();
		String when = (spec.cron() != null) ? "cron " + spec.cron() + " " + spec.zone()
				: "every " + ((every != null) ? every.toString().substring(2).toLowerCase(Locale.ROOT) : "?");
		return when + ", misfire " + spec.misfire().name().toLowerCase(Locale.ROOT);
	}

	private static @Nullable Long millis(@Nullable Instant instant) {
		return (instant != null) ? instant.toEpochMilli() : null;
	}

	private Outcome notDead(String queue, JobId id, String action) {
		Map<String, String> row = this.inspector.row(engineName(queue, id), id);
		if (row.isEmpty()) {
			return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no job " + id, 0);
		}
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " is " + row.getOrDefault("state", "in no state")
				+ ", not dead: only dead jobs can be " + action, 0);
	}

	private static Outcome malformed(JobId id, String action, @Nullable String problem) {
		return new Outcome(Outcome.Status.CONFLICT, "Job " + id + " was not " + action + ": its row is malformed ("
				+ problem + "); it is left as it is for the engine to quarantine", 0);
	}

	private Outcome noListener(String queue) {
		return new Outcome(Outcome.Status.NOT_FOUND, "Queue '" + queue + "' has no listener on " + this.node, 0);
	}

	private @Nullable QueueListenerContainer container(String queue) {
		Keyspace.validateQueueName(queue);
		return (this.listeners != null) ? this.listeners.getContainer(queue) : null;
	}

	private QueueSummary summary(String queue, PartitionedStats partitioned) {
		QueueStats stats = partitioned.total();
		QueueListenerContainer container = (this.listeners != null) ? this.listeners.getContainer(queue) : null;
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		Duration left = this.jobs.admin().pauseLeft(partitions.name(0));
		FlowLimits limits = (container != null) ? container.getSettings().limits() : this.limits.apply(queue);
		return new QueueSummary(queue, QueueFlows.counts(stats), new LinkedHashMap<>(stats.counters()),
				(container != null) ? listener(container) : null, left == null || !left.isZero(),
				this.flows.read(partitions, partitioned, limits, left), nodes(queue));
	}

	/**
	 * The listeners of every live node, from the queue's node registry: one script call.
	 */
	private List<NodeSummary> nodes(String queue) {
		List<NodeSummary> nodes = new ArrayList<>();
		for (NodeListener listener : this.nodes.live(queue)) {
			nodes.add(new NodeSummary(listener.node(), listener.id(), listener.concurrency(), listener.paused(),
					listener.inFlight(), listener.completed(), listener.retried(), listener.dead(), listener.stale(),
					listener.seen().toEpochMilli(), listener.node().equals(this.node)));
		}
		return nodes;
	}

	private PartitionedStats stats(String queue) {
		return PartitionedStats.read(this.inspector, this.partitioning.forQueue(queue));
	}

	/**
	 * Return the queue the engine knows a job of a queue by: the partition its id names,
	 * or the queue itself when it has one partition.
	 * @param queue the queue
	 * @param id the job id
	 * @return the engine queue name
	 * @throws InvalidPartitionException if the id names a partition the queue does not
	 * have
	 */
	public String engineName(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		return this.partitioning.forQueue(queue).nameOf(id);
	}

	private List<QueueHistory.Minute> minutes(QueuePartitions partitions, int minutes) {
		if (!partitions.isPartitioned()) {
			return this.history.minutes(partitions.queue(), minutes);
		}
		Map<Long, long[]> sums = new java.util.TreeMap<>();
		for (String partition : partitions.names()) {
			for (QueueHistory.Minute minute : this.history.minutes(partition, minutes)) {
				long[] sum = sums.computeIfAbsent(minute.start(), (start) -> new long[2]);
				sum[0] += minute.completed();
				sum[1] += minute.failed();
			}
		}
		List<QueueHistory.Minute> merged = new ArrayList<>();
		sums.forEach((start, sum) -> merged.add(new QueueHistory.Minute(start, sum[0], sum[1])));
		return merged;
	}

	private ListenerSummary listener(QueueListenerContainer container) {
		return new ListenerSummary(this.node, container.getId(), container.getSettings().concurrency(),
				container.isRunning(), container.isPaused(), container.isPollerAlive(), container.inFlight(),
				container.getCompletedCount(), container.getRetriedCount(), container.getDeadCount(),
				container.getStaleCount());
	}

	private @Nullable Object sanitize(String key, String value, boolean show) {
		return this.sanitizer.sanitize(new SanitizableData(null, key, value), show);
	}

	private static @Nullable Object preview(@Nullable Object payload) {
		if (payload instanceof String text && text.length() > PREVIEW_LENGTH) {
			return text.substring(0, PREVIEW_LENGTH) + "…";
		}
		return payload;
	}

	private static List<TimelineEntry> timeline(Map<String, String> row, String state, @Nullable Long at) {
		List<TimelineEntry> timeline = new ArrayList<>();
		add(timeline, "enqueued", "Enqueued", row.get("enqueued_at"));
		add(timeline, "run_at", JobState.SCHEDULE.value().equals(state) ? "Runs at" : "Was due", row.get("run_at"));
		add(timeline, "ready_at", "Ready to claim", row.get("ready_at"));
		if (at != null && JobState.ACTIVE.value().equals(state)) {
			timeline.add(new TimelineEntry("lease", "Lease expires", at));
		}
		if (at != null && JobState.QUARANTINE.value().equals(state)) {
			timeline.add(new TimelineEntry("quarantined", "Quarantined", at));
		}
		add(timeline, "dead_at", "Dead-lettered", row.get("dead_at"));
		add(timeline, "completed_at", "Completed", row.get("completed_at"));
		timeline.sort(Comparator.comparingLong(TimelineEntry::at));
		return timeline;
	}

	private static void add(List<TimelineEntry> timeline, String event, String label, @Nullable String value) {
		Long at = parse(value);
		if (at != null) {
			timeline.add(new TimelineEntry(event, label, at));
		}
	}

	private static long number(@Nullable String value) {
		Long parsed = parse(value);
		return (parsed != null) ? parsed : 0;
	}

	private static @Nullable Long parse(@Nullable String value) {
		if (value == null) {
			return null;
		}
		try {
			return Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static String plural(long count, String noun) {
		return count + " " + noun + ((count != 1) ? "s" : "");
	}

	private static boolean isEmpty(QueueStats stats) {
		for (JobState state : JobState.values()) {
			if (stats.count(state) > 0) {
				return false;
			}
		}
		return stats.counters().isEmpty();
	}

	/**
	 * Every known queue.
	 *
	 * @param node the name of this node
	 * @param historyKept whether the engine keeps a per-minute history
	 * @param queues the queues
	 */
	public record Overview(String node, boolean historyKept, List<QueueSummary> queues) {

	}

	/**
	 * A queue.
	 *
	 * @param name the queue name
	 * @param counts how many ids each location holds, by state
	 * @param counters the queue's cumulative counters, across all nodes
	 * @param listener this node's listener, or {@code null}
	 * @param pausedCluster whether the queue is paused cluster-wide (its pause flag is
	 * set)
	 * @param flow its partitions, lanes, limits and the time its pause has left
	 * @param nodes the listener of every live node, this one's included, from the queue's
	 * node registry (each node beats every few seconds)
	 */
	public record QueueSummary(String name, Map<String, Long> counts, Map<String, Long> counters,
			@Nullable ListenerSummary listener, boolean pausedCluster, QueueFlow flow, List<NodeSummary> nodes) {

	}

	/**
	 * A node's listener of a queue, as its last beat in the queue's node registry told
	 * it.
	 *
	 * @param node the node
	 * @param id the listener id
	 * @param concurrency how many handlers run at once
	 * @param paused whether it is paused on its node
	 * @param inFlight jobs claimed and not yet settled
	 * @param completed jobs it completed
	 * @param retried failed attempts it retried
	 * @param dead jobs it dead-lettered
	 * @param stale jobs whose lease was lost while running on it
	 * @param seen the server time of its last beat, epoch ms
	 * @param self whether it is this node
	 */
	public record NodeSummary(String node, String id, int concurrency, boolean paused, int inFlight, long completed,
			long retried, long dead, long stale, long seen, boolean self) {

	}

	/**
	 * A queue's listener on this node.
	 *
	 * @param node the node
	 * @param id the listener id
	 * @param concurrency how many handlers run at once
	 * @param running whether it was started
	 * @param paused whether it is paused
	 * @param pollerAlive whether its claim loop runs
	 * @param inFlight jobs claimed and not yet settled
	 * @param completed jobs completed here
	 * @param retried failed attempts retried here
	 * @param dead jobs dead-lettered here
	 * @param stale jobs whose lease was lost while running here
	 */
	public record ListenerSummary(String node, String id, int concurrency, boolean running, boolean paused,
			boolean pollerAlive, int inFlight, long completed, long retried, long dead, long stale) {

	}

	/**
	 * A page of jobs.
	 *
	 * @param queue the queue
	 * @param state the location
	 * @param offset how many were skipped
	 * @param limit the page size
	 * @param total how many the location holds
	 * @param jobs the page
	 * @param partition the partition shown, or {@code null} for every partition
	 * @param partitionCount how many partitions the queue has
	 * @param mergedWindow how far ({@code offset + limit}) a page of every partition
	 * reaches, or {@code null} when one partition (or an unpartitioned queue) is shown
	 * @param partitions the partition (engine queue name) of each job of a partitioned
	 * queue, by job id; empty otherwise
	 */
	public record JobPage(QueueSummary queue, String state, int offset, int limit, long total, List<JobItem> jobs,
			@Nullable Integer partition, int partitionCount, @Nullable Integer mergedWindow,
			Map<String, String> partitions) {

	}

	/**
	 * A job in a page.
	 *
	 * @param id the job id
	 * @param state its state
	 * @param attempts claims so far (the fencing token)
	 * @param maxAttempts its attempt budget
	 * @param enqueuedAt when it was enqueued, epoch ms
	 * @param at its score: run-at, lease deadline or time of death, epoch ms
	 * @param lastError the last error, or {@code null}
	 * @param payload a preview of the payload, sanitized unless shown
	 * @param claimedBy the node that claimed it last: while it is active, the node whose
	 * listener holds its lease; {@code null} if no claim named one
	 */
	public record JobItem(String id, String state, long attempts, long maxAttempts, long enqueuedAt, @Nullable Long at,
			@Nullable String lastError, @Nullable Object payload, @Nullable String claimedBy) {

	}

	/**
	 * One job.
	 *
	 * @param queue the queue
	 * @param id the job id
	 * @param state the state its row names
	 * @param attempts claims so far (the fencing token)
	 * @param released claims handed back without spending an attempt
	 * @param maxAttempts its attempt budget
	 * @param lastError the last error, or {@code null}
	 * @param payload the payload, sanitized unless shown
	 * @param fields every other field of the row, extra fields sanitized unless shown
	 * @param timeline what happened when, oldest first
	 * @param problem what is wrong with the row, or {@code null}
	 * @param partition the partition (engine queue name) the job lives in, or
	 * {@code null} for an unpartitioned queue
	 * @param claimedBy the node that claimed it last: while it is active, the node whose
	 * listener holds its lease; {@code null} if no claim named one
	 */
	public record JobDetail(String queue, String id, String state, long attempts, long released, long maxAttempts,
			@Nullable String lastError, @Nullable Object payload, Map<String, @Nullable Object> fields,
			List<TimelineEntry> timeline, @Nullable String problem, @Nullable String partition,
			@Nullable String claimedBy) {

	}

	/**
	 * A moment of a job's life.
	 *
	 * @param event the row field or event it comes from
	 * @param label what happened
	 * @param at when, epoch ms
	 */
	public record TimelineEntry(String event, String label, long at) {

	}

	/**
	 * Per-minute history.
	 *
	 * @param kept whether the engine keeps one; when not, pages sample counters
	 * @param queues the minutes of each queue
	 */
	public record History(boolean kept, Map<String, List<QueueHistory.Minute>> queues) {

	}

	/**
	 * The recurring schedules.
	 *
	 * @param ticked whether this node runs a schedule tick (only then are they listed and
	 * can be triggered)
	 * @param schedules the schedules, by queue and name
	 */
	public record ScheduleList(boolean ticked, List<ScheduleItem> schedules) {

	}

	/**
	 * A recurring schedule.
	 *
	 * @param queue the queue its occurrences go to
	 * @param name its name
	 * @param spec when it fires, for people
	 * @param origin where it was declared: api, annotation or properties
	 * @param lastFire the fire time of its last occurrence, epoch ms, or {@code null}
	 * @param nextFire its next fire time, epoch ms, or {@code null} if it never fires
	 * again
	 */
	public record ScheduleItem(String queue, String name, String spec, String origin, @Nullable Long lastFire,
			@Nullable Long nextFire) {

	}

	/**
	 * The outcome of an action.
	 *
	 * @param status what happened
	 * @param message what happened, for people
	 * @param count how many jobs it touched
	 * @param result the engine's own answer, such as a cancel's {@code CANCELLED} or
	 * {@code REQUESTED}, or {@code null}
	 */
	public record Outcome(Status status, String message, long count, @Nullable String result) {

		/**
		 * Create an outcome without an engine answer.
		 * @param status what happened
		 * @param message what happened, for people
		 * @param count how many jobs it touched
		 */
		public Outcome(Status status, String message, long count) {
			this(status, message, count, null);
		}

		static Outcome done(String message, long count) {
			return new Outcome(Status.DONE, message, count);
		}

		static Outcome done(String message, long count, String result) {
			return new Outcome(Status.DONE, message, count, result);
		}

		/**
		 * What happened.
		 */
		public enum Status {

			/** The action was taken. */
			DONE,

			/** The queue has no such job or listener. */
			NOT_FOUND,

			/** The job is not in a state the action applies to. */
			CONFLICT

		}

	}

}
