package io.echomq.dashboard;

import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.echomq.EchoMqAdmin;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.FlowLimits;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.QueuePartitions;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.schedule.EchoMqSchedules;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.util.Assert;

/**
 * What the dashboard reads and does, on the engine's own verbs: queue counts and
 * listeners, pages of each location, one job's row and timeline, and the actions (replay
 * a dead job, delete a waiting or finished job, run a scheduled job now, replay or purge
 * every dead job, pause and resume this node's listener, cancel a job, pause and resume a
 * queue cluster-wide, trigger, pause, resume or delete a recurring schedule, store or
 * reset a queue's run-time limits and listener concurrency). A partitioned queue is shown
 * as the sums over its partitions with each partition's counts, its lanes and limits
 * alongside ({@link QueueFlow}); a job id goes to the partition it names.
 * Technology-neutral: the web layer maps it onto HTTP.
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

	private final String node;

	private final DashboardReads reads;

	private final DashboardActions actions;

	private final DashboardSchedules schedules;

	private final DashboardLimits limits;

	/**
	 * Create a dashboard model.
	 * @param admin the admin its actions go through, whose partitioning it reads queues
	 * by: a partitioned queue is shown as the sums over its partitions with each
	 * partition's counts, its pages list the jobs of every partition, and a job id goes
	 * to the partition it names
	 * @param inspector reads the queues
	 * @param nodes reads which nodes serve a queue
	 * @param flows reads flow trees
	 * @param batches reads batches
	 * @param catalog the queues to list
	 * @param listeners the listener registry of this node, or {@code null}
	 * @param replayBudget the attempt budget a replayed job of a queue gets
	 * @param history the per-minute history
	 * @param sanitizer sanitizes payloads and extra job fields
	 * @param node the name of this node, shown next to its listeners
	 * @param schedules the schedules, which it lists and fires, or {@code null} if this
	 * node runs none
	 */
	public EchoMqDashboard(EchoMqAdmin admin, QueueInspector inspector, QueueNodes nodes, FlowTree flows,
			BatchView batches, EchoMqQueueCatalog catalog, @Nullable EchoJobListenerRegistry listeners,
			ToIntFunction<String> replayBudget, QueueHistory history, Sanitizer sanitizer, String node,
			@Nullable EchoMqSchedules schedules) {
		Assert.notNull(admin, "'admin' must not be null");
		Assert.notNull(inspector, "'inspector' must not be null");
		Assert.notNull(catalog, "'catalog' must not be null");
		Assert.notNull(replayBudget, "'replayBudget' must not be null");
		Assert.notNull(history, "'history' must not be null");
		Assert.notNull(sanitizer, "'sanitizer' must not be null");
		Assert.hasText(node, "'node' must not be empty");
		this.node = node;
		this.reads = new DashboardReads(admin, inspector, nodes, flows, batches, catalog, listeners, history, sanitizer,
				node);
		this.actions = new DashboardActions(admin, inspector, this.reads, listeners, replayBudget, node);
		this.schedules = new DashboardSchedules(schedules, node);
		this.limits = new DashboardLimits(admin);
	}

	/**
	 * Set the configured flow limits of each queue, shown when this node has no listener
	 * of the queue (a listener's own limits are shown otherwise).
	 * @param limits the limits of a queue, {@link FlowLimits#none()} when it has none
	 */
	public void setLimits(Function<String, FlowLimits> limits) {
		Assert.notNull(limits, "'limits' must not be null");
		this.reads.setLimits(limits);
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
		return this.reads.overview();
	}

	/**
	 * Return one queue.
	 * @param queue the queue
	 * @return the queue, or {@code null} if it is not known here and holds nothing
	 * @throws io.echomq.core.InvalidQueueNameException if the name is not valid
	 */
	public @Nullable QueueSummary queue(String queue) {
		return this.reads.queue(queue);
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
		return this.reads.jobs(queue, state, offset, limit, show, partition);
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
		return this.reads.job(queue, id, show);
	}

	/**
	 * Return the whole flow a job belongs to, from its root down (see {@link FlowTree}):
	 * each job's queue, id, state, progress and result, its parent and children, and the
	 * counts per state; at most {@value FlowTree#MAX_DRAWN} jobs.
	 * @param queue the queue
	 * @param id the job id
	 * @param show whether results are shown unsanitized
	 * @return the flow (a job in no flow is a flow of one), or {@code null} if the job
	 * has no row
	 * @since 0.2.0
	 */
	public FlowTree.@Nullable Flow flow(String queue, JobId id, boolean show) {
		return this.reads.flow(queue, id, show);
	}

	/**
	 * Return one batch: its state, counts, callbacks and times (see {@link BatchView}).
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @return the batch, or {@code null} if its home queue has no row for it
	 * @since 0.2.0
	 */
	public BatchView.@Nullable Batch batch(String queue, JobId id) {
		return this.reads.batch(queue, id);
	}

	/**
	 * Return the open and sealed batches of a queue, oldest first, at most
	 * {@value BatchView#MAX_LISTED}.
	 * @param queue the batches' home queue
	 * @return the batches and how many there are
	 * @since 0.2.0
	 */
	public BatchView.Listing batches(String queue) {
		return this.reads.batches(queue);
	}

	/**
	 * Find the queue of a job among the known queues: one {@code HGETALL} per queue.
	 * @param id the job id
	 * @return the queue, or {@code null} if no known queue has a row for it
	 */
	public @Nullable String findQueue(JobId id) {
		return this.reads.findQueue(id);
	}

	/**
	 * Return the per-minute history of every known queue.
	 * @param minutes how many minutes back, at most {@value QueueHistory#MAX_MINUTES}
	 * @return the history
	 */
	public History history(int minutes) {
		return this.reads.history(minutes);
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
		return this.reads.engineName(queue, id);
	}

	/**
	 * Replay a dead job: back to pending with a fresh budget of the queue's attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome replay(String queue, JobId id) {
		return this.actions.replay(queue, id);
	}

	/**
	 * Delete a job with its row: pending, scheduled, dead or completed (within
	 * retention). An active job is refused: its worker holds a lease.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome delete(String queue, JobId id) {
		return this.actions.delete(queue, id);
	}

	/**
	 * Run a scheduled job now: to pending at once, whatever its run-at.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome
	 */
	public Outcome runNow(String queue, JobId id) {
		return this.actions.runNow(queue, id);
	}

	/**
	 * Replay dead jobs, latest death first, looking at {@value #MAX_REPLAY_ALL} at most:
	 * one {@code ZREVRANGE} per 100 and one {@code replay} script per job. A job that
	 * left {@code dead} meanwhile is skipped.
	 * @param queue the queue
	 * @return the outcome, with how many were replayed
	 */
	public Outcome replayAllDead(String queue) {
		return this.actions.replayAllDead(queue);
	}

	/**
	 * Delete every dead job of a queue.
	 * @param queue the queue
	 * @return the outcome, with how many were deleted
	 */
	public Outcome purgeDead(String queue) {
		return this.actions.purgeDead(queue);
	}

	/**
	 * Pause this node's listener of a queue: it stops claiming, in-flight jobs go on.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome pause(String queue) {
		return this.actions.pause(queue);
	}

	/**
	 * Resume this node's paused listener of a queue.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome resume(String queue) {
		return this.actions.resume(queue);
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
		return this.actions.cancel(queue, id);
	}

	/**
	 * Pause a queue cluster-wide: no node claims from it until it is resumed.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome pauseCluster(String queue) {
		return this.actions.pauseCluster(queue);
	}

	/**
	 * Resume a queue paused cluster-wide.
	 * @param queue the queue
	 * @return the outcome
	 */
	public Outcome resumeCluster(String queue) {
		return this.actions.resumeCluster(queue);
	}

	/**
	 * Return the recurring schedules the schedule tick of this node visits, with their
	 * last and next fire time.
	 * @return the schedules; none and not triggerable when this node runs no tick
	 */
	public ScheduleList schedules() {
		return this.schedules.schedules();
	}

	/**
	 * Enqueue an occurrence of a schedule now; its next fire time stays.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the outcome: not found when this node runs no tick or has no such schedule
	 * @throws io.echomq.schedule.InvalidScheduleException if the queue or name is invalid
	 */
	public Outcome trigger(String queue, String name) {
		return this.schedules.trigger(queue, name);
	}

	/**
	 * Pause a schedule on every node until resumed, or resume it.
	 * @param queue the queue
	 * @param name the schedule name
	 * @param paused {@code true} to pause, {@code false} to resume
	 * @return the outcome: not found when this node runs no tick or has no such schedule
	 * @throws io.echomq.schedule.InvalidScheduleException if the queue or name is invalid
	 */
	public Outcome pauseSchedule(String queue, String name, boolean paused) {
		return this.schedules.pause(queue, name, paused);
	}

	/**
	 * Delete a schedule; a declared one comes back at the next start-up.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the outcome: not found when this node runs no tick or has no such schedule
	 * @throws io.echomq.schedule.InvalidScheduleException if the queue or name is invalid
	 */
	public Outcome deleteSchedule(String queue, String name) {
		return this.schedules.delete(queue, name);
	}

	/**
	 * Store run-time limits of a queue on every node, as {@link EchoMqAdmin#setLimits}
	 * and {@link EchoMqAdmin#setConcurrency} do: they win over the configured ones until
	 * reset; values not given stay as they are.
	 * @param queue the queue
	 * @param limits the values to store
	 * @return the outcome
	 * @throws IllegalArgumentException if a value is out of range, a rate comes without
	 * its period, or nothing is given (nothing was written)
	 * @since 0.5.0
	 */
	public Outcome storeLimits(String queue, LimitsUpdate limits) {
		Assert.notNull(limits, "'limits' must not be null");
		return this.limits.store(queue, limits);
	}

	/**
	 * Reset stored limits of a queue on every node, back to the configured ones (see
	 * {@link EchoMqAdmin#resetLimits}).
	 * @param queue the queue
	 * @param which {@code all}, or a comma-separated list of {@code max-active},
	 * {@code rate-limit}, {@code lane-max-active}, {@code lane-rate-limit},
	 * {@code concurrency}
	 * @return the outcome
	 * @throws IllegalArgumentException if a name is unknown (nothing was written)
	 * @since 0.5.0
	 */
	public Outcome resetLimits(String queue, String which) {
		return this.limits.reset(queue, which);
	}

}
