package io.echomq;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.echomq.core.CancelResult;
import io.echomq.core.EchoMqEngine;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.JobRef;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.LaneControls;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.TransitionResult;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.LaneAdmin;
import io.echomq.core.internal.QueueAdmin;
import io.echomq.core.internal.Upkeep;
import io.echomq.inspect.QueueInspector;
import io.echomq.internal.EnqueueCallbacks;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Administers queues and their jobs: replay, delete, run now and cancel one job, replay
 * or purge every dead job, pause and resume a queue cluster-wide, pause, resume, cap and
 * limit one of its lanes, and store or reset its limits and listener concurrency at run
 * time ({@link #setLimits}, {@link #setConcurrency}, {@link #resetLimits}, read with
 * {@link #limits}). A job id goes to the partition it names and a queue-wide action to
 * every partition of a {@linkplain #setPartitioning partitioned} queue, so callers (the
 * actuator endpoint, the dashboard, an application) name the logical queue only. Cancels,
 * pauses and resumes are told to the {@linkplain #setControlListeners control listeners}
 * (such as the cancellation meter).
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see EchoMqTemplate
 */
public class EchoMqAdmin {

	private static final int REPLAY_BATCH = 100;

	private final QueueAdmin admin;

	private final Batches batches;

	private final Upkeep upkeep;

	private final LaneAdmin lanes;

	private final QueueInspector inspector;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	private volatile List<ControlListener> controlListeners = List.of();

	private volatile Function<String, FlowLimits> configuredLimits = (queue) -> FlowLimits.none();

	private volatile Function<String, @Nullable Integer> configuredConcurrency = (queue) -> null;

	/**
	 * Create an admin over an engine; every queue has one partition until
	 * {@link #setPartitioning} says otherwise.
	 * @param engine the engine
	 */
	public EchoMqAdmin(EchoMqEngine engine) {
		Engine jobs = Engine.of(engine);
		this.admin = jobs.admin();
		this.batches = jobs.batches();
		this.upkeep = jobs.upkeep();
		this.lanes = new LaneAdmin(this.admin, this::partitions);
		this.inspector = new QueueInspector(engine);
	}

	/**
	 * Set how many partitions each queue has.
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	/**
	 * Return how many partitions each queue has.
	 * @return the partitioning
	 */
	public QueuePartitioning getPartitioning() {
		return this.partitioning;
	}

	/**
	 * Set the listeners told of every cancel, pause and resume made through this admin
	 * (such as the cancellation meter).
	 * @param listeners the listeners
	 */
	public void setControlListeners(List<ControlListener> listeners) {
		Assert.notNull(listeners, "'listeners' must not be null");
		this.controlListeners = List.copyOf(listeners);
	}

	/**
	 * Replay a dead job: back to pending with a fresh budget of attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @param budget the attempts the job gets
	 * @return what the replay did
	 */
	public TransitionResult replay(String queue, JobId id, int budget) {
		return this.admin.replay(partitionOf(queue, id), id, budget);
	}

	/**
	 * Replay the dead jobs of a queue, partition after partition, looking at no more than
	 * {@code limit} of them; a job that cannot be replayed (its row changed or is
	 * malformed) is passed over.
	 * @param queue the queue
	 * @param budget the attempts each replayed job gets
	 * @param limit the most dead jobs looked at
	 * @return how many were replayed, and how many are still dead
	 */
	public DeadReplay replayDead(String queue, int budget, int limit) {
		Keyspace.validateQueueName(queue);
		long replayed = 0;
		int looked = 0;
		long left = 0;
		for (String partition : partitions(queue).names()) {
			int skipped = 0;
			while (looked < limit) {
				List<JobId> ids = this.inspector.ids(partition, JobState.DEAD, skipped, REPLAY_BATCH);
				if (ids.isEmpty()) {
					break;
				}
				for (JobId id : ids) {
					if (looked >= limit) {
						break;
					}
					looked++;
					if (this.admin.replay(partition, id, budget).isApplied()) {
						replayed++;
					}
					else {
						skipped++;
					}
				}
			}
			left += this.inspector.stats(partition).dead();
		}
		return new DeadReplay(replayed, left);
	}

	/**
	 * Delete a job that no worker holds, whatever its state.
	 * @param queue the queue
	 * @param id the job id
	 * @return what the delete did
	 */
	public TransitionResult delete(String queue, JobId id) {
		return this.admin.delete(partitionOf(queue, id), id);
	}

	/**
	 * Remove what a flow or batch written in part left: each job written is cancelled
	 * (children before their parents, so that no cancel settles a parent that is removed
	 * next), one the cancel does not remove (a parent its cancelled child dead-lettered)
	 * is deleted, and a batch the write opened takes back the jobs it counted and never
	 * got and is sealed, so that its row finishes and its callbacks, cancelled, are
	 * skipped. Jobs a worker runs meanwhile are cancelled as
	 * {@link #cancel(String, JobId)} does: their outcome is discarded.
	 * @param partial what the write threw
	 * @return how many jobs were removed or asked to stop
	 */
	public long discard(PartialEnqueueException partial) {
		Assert.notNull(partial, "'partial' must not be null");
		List<JobRef> written = new ArrayList<>(partial.getWrittenJobs());
		Collections.reverse(written);
		long removed = 0;
		for (JobRef job : written) {
			CancelResult cancel = cancel(job.queue(), job.id());
			if (cancel.outcome() == CancelResult.Outcome.CANCELLED
					|| cancel.outcome() == CancelResult.Outcome.REQUESTED) {
				removed++;
			}
			else if (delete(job.queue(), job.id()).isApplied()) {
				removed++;
			}
		}
		JobRef batch = partial.getOpenBatch();
		if (batch != null) {
			if (partial.getCountedNotWritten() > 0) {
				this.batches.add(batch.queue(), batch.id(), -partial.getCountedNotWritten());
			}
			this.batches.seal(batch.queue(), batch.id());
		}
		return removed;
	}

	/**
	 * Move a scheduled job to pending, to run as soon as a worker is free.
	 * @param queue the queue
	 * @param id the job id
	 * @return what the move did
	 */
	public TransitionResult runNow(String queue, JobId id) {
		return this.admin.runNow(partitionOf(queue, id), id);
	}

	/**
	 * Return how long a queue stays paused: the pause of its first partition, which a
	 * queue-wide pause sets on every partition alike.
	 * @param queue the queue
	 * @return the time left, {@link Duration#ZERO} when not paused, or {@code null} when
	 * paused until resumed
	 * @since 0.4.0
	 */
	public @Nullable Duration pauseLeft(String queue) {
		return this.admin.pauseLeft(partitions(queue).name(0));
	}

	/**
	 * Move every scheduled job of a queue that is due to pending now, as the maintenance
	 * tick does within its interval, over every partition of the queue.
	 * @param queue the queue
	 * @return how many jobs moved
	 * @since 0.4.0
	 */
	public long promoteDue(String queue) {
		long moved = 0;
		for (String partition : partitions(queue).names()) {
			int page;
			do {
				page = this.upkeep.promote(partition, REPLAY_BATCH);
				moved += page;
			}
			while (page == REPLAY_BATCH);
		}
		return moved;
	}

	/**
	 * Return the server's time, which every lease, run-at and backoff is measured by.
	 * @return the time the server read
	 * @since 0.4.0
	 */
	public Instant serverTime() {
		return Instant.ofEpochMilli(this.admin.serverTime());
	}

	/**
	 * Delete every dead job of a queue.
	 * @param queue the queue
	 * @return how many were deleted
	 */
	public long purgeDead(String queue) {
		Keyspace.validateQueueName(queue);
		long purged = 0;
		for (String partition : partitions(queue).names()) {
			purged += this.admin.purgeDead(partition);
		}
		return purged;
	}

	/**
	 * Cancel a job, whatever its state, in one atomic script. A pending, scheduled or
	 * dead job is removed with its row; a running job is marked, its worker interrupts
	 * the handler at the next lease renewal (every third of the lease), and what the
	 * handler comes to is discarded; a finished or unknown job is reported as not found.
	 * @param queue the queue
	 * @param id the job id
	 * @return what the cancel did
	 */
	public CancelResult cancel(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(id, "'id' must not be null");
		CancelResult result = this.admin.cancel(partitionOf(queue, id), id);
		for (ControlListener listener : this.controlListeners) {
			EnqueueCallbacks.notify(listener, () -> listener.onCancel(queue, id, result));
		}
		return result;
	}

	/**
	 * Cancel a job by the text of its id (see {@link #cancel(String, JobId)}).
	 * @param queue the queue
	 * @param id the job id text
	 * @return what the cancel did
	 * @throws io.echomq.core.InvalidJobIdException if the id is not a well-formed JOB id
	 * (nothing was written)
	 */
	public CancelResult cancel(String queue, String id) {
		Keyspace.validateQueueName(queue);
		return cancel(queue, JobId.parse(id));
	}

	/**
	 * Pause a queue cluster-wide until it is {@linkplain #resume(String) resumed}: no
	 * node claims from it (running jobs finish; enqueues, retries and promotions go on).
	 * This is a flag in the queue's keyspace, unlike a listener container's own pause,
	 * which stops one node.
	 * @param queue the queue
	 * @return whether the queue was not paused until resumed already
	 */
	public boolean pause(String queue) {
		return pause(queue, null);
	}

	/**
	 * Pause a queue cluster-wide for {@code duration} (server time), or until resumed
	 * when {@code null}. A timed pause never shortens a pause in place.
	 * @param queue the queue
	 * @param duration how long, at least 1 ms, or {@code null} until resumed
	 * @return whether the pause flag changed
	 */
	public boolean pause(String queue, @Nullable Duration duration) {
		Keyspace.validateQueueName(queue);
		if (duration != null && duration.toMillis() < 1) {
			throw new IllegalArgumentException(
					"Pause of queue '" + queue + "' must last at least 1ms, was " + duration);
		}
		boolean changed = false;
		for (String partition : partitions(queue).names()) {
			changed |= this.admin.pause(partition, duration, (duration != null) ? "paused for " + duration : "paused");
		}
		boolean anyChanged = changed;
		for (ControlListener listener : this.controlListeners) {
			EnqueueCallbacks.notify(listener, () -> listener.onPause(queue, duration, anyChanged));
		}
		return anyChanged;
	}

	/**
	 * Resume a queue paused cluster-wide; idle pollers on every node are woken up.
	 * @param queue the queue
	 * @return whether it was paused
	 */
	public boolean resume(String queue) {
		Keyspace.validateQueueName(queue);
		boolean resumed = false;
		for (String partition : partitions(queue).names()) {
			resumed |= this.admin.resume(partition);
		}
		boolean changed = resumed;
		for (ControlListener listener : this.controlListeners) {
			EnqueueCallbacks.notify(listener, () -> listener.onResume(queue, changed));
		}
		return changed;
	}

	/**
	 * Return whether a queue is paused cluster-wide.
	 * @param queue the queue
	 * @return {@code true} while the pause flag exists
	 */
	public boolean isPaused(String queue) {
		Keyspace.validateQueueName(queue);
		Duration left = this.admin.pauseLeft(partitions(queue).name(0));
		return left == null || !left.isZero();
	}

	/**
	 * Pause one lane of a queue cluster-wide until it is
	 * {@linkplain #resumeLane(String, String) resumed}: no node claims its jobs (running
	 * ones finish). Its jobs stay pending in the lane, in their order, and new ones are
	 * still accepted (within its {@linkplain #setLanePendingCap pending cap}); the other
	 * lanes and the queue's jobs without a lane are claimed as usual. Every partition of
	 * a partitioned queue pauses the lane.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return whether the lane was not paused already
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name or the lane key
	 * is not valid (nothing was written)
	 */
	public boolean pauseLane(String queue, String lane) {
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.PAUSE, 0, null, null);
	}

	/**
	 * Resume a paused lane; idle pollers on every node are woken up when it has pending
	 * jobs, which are then claimed in their turn as before the pause.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return whether the lane was paused
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name or the lane key
	 * is not valid (nothing was written)
	 */
	public boolean resumeLane(String queue, String lane) {
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.RESUME, 0, null, null);
	}

	/**
	 * Cap a lane's pending set: an enqueue that would leave more than {@code cap} jobs
	 * pending in the lane is refused whole with a
	 * {@link io.echomq.core.LaneFullException}, nothing written, so that with a cap of
	 * {@code C} exactly {@code C} jobs are accepted however many producers race. A full
	 * lane refuses delayed jobs too, though delayed jobs do not count until they are due;
	 * jobs coming back to the lane (due, retried, reaped) are never refused, so a lane
	 * may hold more than its cap for a while, and refuses enqueues until it drains below.
	 * Lowering the cap drops nothing. Every partition holds the cap (a lane's jobs
	 * enqueued with a partition key of their own meet it in each partition alone). An
	 * {@code enqueueAll} of more than one chunk is one enqueue per chunk.
	 * @param queue the queue
	 * @param lane the lane key
	 * @param cap the most jobs pending in the lane, at least 1
	 * @return whether the cap changed
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name or the lane key
	 * is not valid (nothing was written)
	 * @throws IllegalArgumentException if the cap is less than 1 (nothing was written)
	 */
	public boolean setLanePendingCap(String queue, String lane, long cap) {
		Assert.isTrue(cap >= 1,
				() -> "The pending cap of lane '" + lane + "' of queue '" + queue + "' must be at least 1, was " + cap);
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.CAP, cap, null, null);
	}

	/**
	 * Clear a lane's pending cap: enqueues into the lane are no longer refused.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return whether the lane had a cap
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name or the lane key
	 * is not valid (nothing was written)
	 */
	public boolean clearLanePendingCap(String queue, String lane) {
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.UNCAP, 0, null, null);
	}

	/**
	 * Give a lane its own max-active and/or rate ({@code null} leaves one as it is) on
	 * every partition, winning over the queue's lane defaults from every node's next
	 * claim. Jobs active before a lane's first max-active do not count against it.
	 * @param queue the queue
	 * @param lane the lane key
	 * @param maxActive the most jobs of the lane active at once (at least 1)
	 * @param rate the most starts of the lane per period
	 * @return whether the limits changed
	 * @throws IllegalArgumentException if both are {@code null}, the max-active is less
	 * than 1, or the queue name or lane key is not valid (nothing was written)
	 */
	public boolean setLaneLimits(String queue, String lane, @Nullable Integer maxActive,
			FlowLimits.@Nullable RateLimit rate) {
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.LIMIT, 0, maxActive, rate);
	}

	/**
	 * Clear a lane's own max-active and rate: the queue's lane defaults apply again.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return whether the lane had limits of its own
	 */
	public boolean clearLaneLimits(String queue, String lane) {
		return this.lanes.control(queue, lane, QueueAdmin.LaneControl.UNLIMIT, 0, null, null);
	}

	/**
	 * Return a lane's controls as they are now: whether it is paused, its pending cap,
	 * its own limits and how many jobs it holds pending (none set and 0 pending for a
	 * lane nobody controlled).
	 * @param queue the queue
	 * @param lane the lane key
	 * @return the lane's controls (on a partitioned queue: paused when paused in any
	 * partition, the cap and limits of the lane's own partition, the pending jobs of
	 * every partition)
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name or the lane key
	 * is not valid
	 */
	public LaneControls laneControls(String queue, String lane) {
		return this.lanes.read(queue, lane);
	}

	/**
	 * Set where {@link #limits(String)} reads a queue's configured limits and
	 * concurrency.
	 * @param limits the configured limits of a queue
	 * @param concurrency the configured listener concurrency of a queue, or {@code null}
	 * @since 0.5.0
	 */
	public void setConfiguredLimits(Function<String, FlowLimits> limits,
			Function<String, @Nullable Integer> concurrency) {
		Assert.notNull(limits, "'limits' must not be null");
		Assert.notNull(concurrency, "'concurrency' must not be null");
		this.configuredLimits = limits;
		this.configuredConcurrency = concurrency;
	}

	/**
	 * Return a queue's limits as configured and as stored at run time.
	 * @param queue the queue
	 * @return the limits (stored ones read from its first partition)
	 * @since 0.5.0
	 */
	public QueueLimits limits(String queue) {
		Keyspace.validateQueueName(queue);
		return limits(queue, this.admin.storedLimits(partitions(queue).name(0)));
	}

	/**
	 * Store run-time limits for a queue, cluster-wide: each non-{@code null} component of
	 * {@code limits} wins over the configured value on every node from its next claim
	 * after this method returns, until {@linkplain #resetLimits reset}; components left
	 * {@code null} are not changed. A partitioned queue gets one script call per
	 * partition (its own slot), each enforcing its share of the queue-wide cap and rate;
	 * should one fail, calling again completes the write.
	 * @param queue the queue
	 * @param limits the limits to store
	 * @return the limits after the write
	 * @throws IllegalArgumentException if the limits are empty (nothing was written)
	 * @since 0.5.0
	 */
	public QueueLimits setLimits(String queue, FlowLimits limits) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(limits, "'limits' must not be null");
		Assert.isTrue(limits.isLimited(), () -> "No limit to store for queue '" + queue + "'");
		return store(queue, QueueLimits.fields(limits));
	}

	/**
	 * Store the concurrency of every listener container of a queue, cluster-wide, until
	 * {@linkplain #resetLimits reset}. A running container reads it at most once a second
	 * at a turn of its claim loop and resizes its workers (and the thread pool it made):
	 * within about a second while it claims or idles (the write wakes idle pollers), at
	 * the latest after its idle wait plus a second while every worker is busy. Running
	 * handlers are never interrupted. A container started later starts with it.
	 * @param queue the queue
	 * @param concurrency how many handlers each container runs at once, at least 1
	 * @return the limits after the write
	 * @since 0.5.0
	 */
	public QueueLimits setConcurrency(String queue, int concurrency) {
		Keyspace.validateQueueName(queue);
		Assert.isTrue(concurrency > 0, () -> "concurrency must be positive, was " + concurrency);
		return store(queue, Map.of(QueueLimits.Setting.CONCURRENCY.field(), Integer.toString(concurrency)));
	}

	/**
	 * Reset stored limits of a queue, on every partition, so that the configured values
	 * apply again from every node's next claim (the concurrency from each container's
	 * next beat).
	 * @param queue the queue
	 * @param settings the limits to reset; none resets them all
	 * @return the limits after the write
	 * @since 0.5.0
	 */
	public QueueLimits resetLimits(String queue, QueueLimits.Setting... settings) {
		Keyspace.validateQueueName(queue);
		List<String> fields = QueueLimits.fields(settings);
		return eachPartition(queue, (partition) -> this.admin.resetLimits(partition, fields));
	}

	private QueueLimits store(String queue, Map<String, String> fields) {
		Map<String, String> withPartitions = new LinkedHashMap<>(fields);
		withPartitions.put("partitions", Integer.toString(partitions(queue).count()));
		return eachPartition(queue, (partition) -> this.admin.setLimits(partition, withPartitions));
	}

	private QueueLimits eachPartition(String queue, Function<String, Map<String, String>> write) {
		List<String> names = partitions(queue).names();
		Map<String, String> stored = Map.of();
		// the first partition, which limits(queue) reads, last
		for (int i = names.size() - 1; i >= 0; i--) {
			stored = write.apply(names.get(i));
		}
		return limits(queue, stored);
	}

	private QueueLimits limits(String queue, Map<String, String> stored) {
		return new QueueLimits(queue, this.configuredLimits.apply(queue), this.configuredConcurrency.apply(queue),
				QueueLimits.storedLimits(stored), QueueLimits.number(stored, QueueLimits.Setting.CONCURRENCY.field()));
	}

	private QueuePartitions partitions(String queue) {
		return this.partitioning.forQueue(queue);
	}

	private String partitionOf(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		return partitions(queue).nameOf(id);
	}

	/**
	 * What a {@linkplain #replayDead replay of the dead jobs} did.
	 *
	 * @param replayed how many jobs were replayed
	 * @param stillDead how many are dead after it
	 */
	public record DeadReplay(long replayed, long stillDead) {

	}

}
