package io.echomq.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

import io.echomq.EchoMqAdmin;
import io.echomq.actuate.QueueDescriptors.ListenerDescriptor;
import io.echomq.actuate.QueueDescriptors.QueueDescriptor;
import io.echomq.actuate.QueueDescriptors.QueuesDescriptor;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.CancelResult;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.TransitionResult;
import io.echomq.crypto.PayloadEncryption;
import io.echomq.inspect.AuditReport;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.JobView;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueAuditor;
import io.echomq.inspect.QueueInspector;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.EchoMqSchedules;
import io.echomq.schedule.ScheduleFire;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.util.Assert;

/**
 * The {@code echomq} endpoint: every known queue with its counts and listener, and, as
 * plain methods for the {@linkplain EchoMqEndpointWebExtension web extension}, one queue,
 * a page of its dead jobs, an audit of its keyspace, and the write operations (replay a
 * dead job, purge the dead jobs, cancel a job, pause or resume a listener or the queue
 * cluster-wide).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Endpoint(id = "echomq")
public class EchoMqEndpoint {

	/** Most dead jobs one page returns. */
	public static final int MAX_PAGE = 100;

	/** Most lanes a queue descriptor lists (the next turns first). */
	public static final int MAX_LANES = 100;

	/** What an encrypted payload or result is shown as, whatever show-values says. */
	public static final String ENCRYPTED = "encrypted";

	private final QueueInspector inspector;

	private final QueueAuditor auditor;

	private final FlowTree flows;

	private final BatchView batches;

	private final EchoMqQueueCatalog catalog;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final ToIntFunction<String> maxAttempts;

	private final EchoMqAdmin admin;

	private final Duration auditTolerance;

	private final Sanitizer sanitizer;

	private volatile @Nullable EchoMqSchedules schedules;

	/**
	 * Create an endpoint.
	 * @param admin the admin its replays, purges, cancels and cluster-wide pauses go
	 * through, whose partitioning it reads queues by
	 * @param inspector reads the queues
	 * @param auditor audits a queue
	 * @param flows reads flow trees
	 * @param batches reads batches
	 * @param catalog the queues to list
	 * @param listeners the listener registry, or {@code null}
	 * @param maxAttempts the attempt budget of a queue, given to a replayed job
	 * @param auditTolerance how far past its lease deadline an active job may be before
	 * the audit reports it
	 * @param sanitizer sanitizes payloads
	 */
	public EchoMqEndpoint(EchoMqAdmin admin, QueueInspector inspector, QueueAuditor auditor, FlowTree flows,
			BatchView batches, EchoMqQueueCatalog catalog, @Nullable EchoJobListenerRegistry listeners,
			ToIntFunction<String> maxAttempts, Duration auditTolerance, Sanitizer sanitizer) {
		Assert.notNull(admin, "'admin' must not be null");
		Assert.notNull(inspector, "'inspector' must not be null");
		Assert.notNull(auditor, "'auditor' must not be null");
		Assert.notNull(flows, "'flows' must not be null");
		Assert.notNull(batches, "'batches' must not be null");
		Assert.notNull(catalog, "'catalog' must not be null");
		Assert.notNull(maxAttempts, "'maxAttempts' must not be null");
		Assert.notNull(auditTolerance, "'auditTolerance' must not be null");
		Assert.notNull(sanitizer, "'sanitizer' must not be null");
		this.admin = admin;
		this.inspector = inspector;
		this.auditor = auditor;
		this.flows = flows;
		this.batches = batches;
		this.catalog = catalog;
		this.listeners = listeners;
		this.maxAttempts = maxAttempts;
		this.auditTolerance = auditTolerance;
		this.sanitizer = sanitizer;
	}

	/**
	 * Return every known queue: those with a listener here, those configured under
	 * {@code echomq.queues}, and those this application enqueued to.
	 * @return the queues
	 */
	@ReadOperation
	public QueuesDescriptor queues() {
		Map<String, QueueDescriptor> queues = new LinkedHashMap<>();
		for (String queue : this.catalog.queues()) {
			queues.put(queue, describe(queue, stats(queue)));
		}
		return new QueuesDescriptor(queues);
	}

	/**
	 * Return one queue.
	 * @param queue the queue
	 * @return the queue, or {@code null} if it is not known here and holds nothing
	 * @throws IllegalArgumentException if the name is not a valid queue name
	 */
	public @Nullable QueueDescriptor queue(String queue) {
		Keyspace.validateQueueName(queue);
		PartitionedStats stats = stats(queue);
		if (!this.catalog.contains(queue) && QueueDescriptors.isEmpty(stats.total())) {
			return null;
		}
		return describe(queue, stats);
	}

	/**
	 * Return a page of a queue's dead jobs, most recent first.
	 * @param queue the queue
	 * @param offset how many to skip
	 * @param limit the page size, at most {@value #MAX_PAGE}
	 * @param showPayloads whether payloads are shown unsanitized
	 * @return the page
	 * @throws IllegalArgumentException if the name, offset or limit is invalid
	 */
	public JobDescriptors.DeadJobsDescriptor dead(String queue, int offset, int limit, boolean showPayloads) {
		Keyspace.validateQueueName(queue);
		Assert.isTrue(offset >= 0, () -> "offset must not be negative, was " + offset);
		Assert.isTrue(limit > 0 && limit <= MAX_PAGE,
				() -> "limit must be between 1 and " + MAX_PAGE + ", was " + limit);
		QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
		long total = 0;
		List<JobView> views = new ArrayList<>();
		for (String name : partitions.names()) {
			total += this.inspector.stats(name).dead();
			// the newest offset + limit of each partition hold the merged page
			views.addAll(this.inspector.dead(name, partitions.isPartitioned() ? 0 : offset,
					partitions.isPartitioned() ? offset + limit : limit));
		}
		if (partitions.isPartitioned()) {
			views.sort(
					Comparator.comparing((JobView view) -> (view.at() != null) ? view.at() : Instant.EPOCH).reversed());
			views = views.subList(Math.min(offset, views.size()), Math.min(offset + limit, views.size()));
		}
		List<JobDescriptors.DeadJobDescriptor> page = views.stream()
			.map((view) -> describe(view, showPayloads))
			.toList();
		return new JobDescriptors.DeadJobsDescriptor(offset, limit, total, page);
	}

	/**
	 * Audit a queue's keyspace against the engine's invariants; exact only while the
	 * queue is quiescent. The audit reads the queue page by page and never sends a
	 * command that touches more than {@value QueueAuditor#PAGE} members, so it does not
	 * block the server on a big queue; it lists at most {@value QueueAuditor#MAX_LISTED}
	 * violations and counts the rest.
	 * @param queue the queue
	 * @return the audit
	 * @throws IllegalArgumentException if the name is not a valid queue name
	 */
	public JobDescriptors.AuditDescriptor audit(String queue) {
		Keyspace.validateQueueName(queue);
		QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
		if (!partitions.isPartitioned()) {
			return describe(this.auditor.audit(queue, this.auditTolerance), null);
		}
		Map<String, JobDescriptors.AuditDescriptor> each = new LinkedHashMap<>();
		Map<String, Long> counts = new LinkedHashMap<>();
		long rows = 0;
		long violationCount = 0;
		List<String> violations = new ArrayList<>();
		for (String name : partitions.names()) {
			JobDescriptors.AuditDescriptor audit = describe(this.auditor.audit(name, this.auditTolerance), null);
			each.put(name, audit);
			audit.counts().forEach((state, count) -> counts.merge(state, count, Long::sum));
			rows += audit.rows();
			violationCount += audit.violationCount();
			audit.violations().forEach((violation) -> violations.add(name + ": " + violation));
		}
		return new JobDescriptors.AuditDescriptor(violationCount == 0, counts, rows, violationCount,
				violations.subList(0, Math.min(violations.size(), QueueAuditor.MAX_LISTED)), each);
	}

	private static JobDescriptors.AuditDescriptor describe(AuditReport report,
			@Nullable Map<String, JobDescriptors.AuditDescriptor> partitions) {
		Map<String, Long> counts = new LinkedHashMap<>();
		for (JobState state : JobState.values()) {
			counts.put(state.value(), report.counts().getOrDefault(state, 0L));
		}
		return new JobDescriptors.AuditDescriptor(report.isClean(), counts, report.rows(), report.violationCount(),
				report.violations(), partitions);
	}

	/**
	 * Replay a dead job: back to pending with a fresh budget of the queue's configured
	 * attempts.
	 * @param queue the queue
	 * @param id the job id
	 * @return the outcome, or {@code null} if the queue has no such job
	 * @throws IllegalArgumentException if the queue name or the id is invalid
	 */
	public JobDescriptors.@Nullable ReplayDescriptor replay(String queue, String id) {
		Keyspace.validateQueueName(queue);
		JobId jobId = JobId.parse(id);
		int budget = this.maxAttempts.applyAsInt(queue);
		TransitionResult result = this.admin.replay(queue, jobId, budget);
		if (result.isApplied()) {
			return new JobDescriptors.ReplayDescriptor(true, JobState.PENDING.value(), budget);
		}
		JobView view = this.inspector.job(this.admin.getPartitioning().forQueue(queue).nameOf(jobId), jobId);
		return (view != null) ? new JobDescriptors.ReplayDescriptor(false, view.state().value(), budget) : null;
	}

	/**
	 * Delete every dead job of a queue.
	 * @param queue the queue
	 * @return how many were deleted
	 * @throws IllegalArgumentException if the name is not a valid queue name
	 */
	public JobDescriptors.PurgeDescriptor purgeDead(String queue) {
		return new JobDescriptors.PurgeDescriptor(this.admin.purgeDead(queue));
	}

	/**
	 * Pause a queue's listener: it stops claiming, in-flight jobs go on.
	 * @param queue the queue
	 * @return the listener, or {@code null} if the queue has no listener here
	 */
	public @Nullable ListenerDescriptor pause(String queue) {
		QueueListenerContainer container = container(queue);
		if (container == null) {
			return null;
		}
		container.pause();
		return QueueDescriptors.describe(container);
	}

	/**
	 * Resume a queue's paused listener.
	 * @param queue the queue
	 * @return the listener, or {@code null} if the queue has no listener here
	 */
	public @Nullable ListenerDescriptor resume(String queue) {
		QueueListenerContainer container = container(queue);
		if (container == null) {
			return null;
		}
		container.resume();
		return QueueDescriptors.describe(container);
	}

	/**
	 * Set the schedules {@link #schedules()} lists and
	 * {@link #triggerSchedule(String, String)} triggers.
	 * @param schedules the schedules, or {@code null} if this application runs none
	 */
	public void setSchedules(@Nullable EchoMqSchedules schedules) {
		this.schedules = schedules;
	}

	/**
	 * Return the recurring schedules with their last and next fire time.
	 * @return the schedules, or {@code null} if this application runs no schedule tick
	 */
	public ScheduleDescriptors.@Nullable SchedulesDescriptor schedules() {
		EchoMqSchedules ticker = this.schedules;
		return (ticker != null) ? ScheduleDescriptors.describe(ticker.schedules()) : null;
	}

	/**
	 * Enqueue an occurrence of a schedule now; its next fire time stays.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the occurrence, or {@code null} if there is no such schedule
	 * @throws io.echomq.schedule.InvalidScheduleException if the queue or name is invalid
	 */
	public ScheduleDescriptors.@Nullable TriggerDescriptor triggerSchedule(String queue, String name) {
		EchoMqSchedules ticker = this.schedules;
		ScheduleFire fire = (ticker != null) ? ticker.trigger(queue, name) : null;
		return (fire != null) ? ScheduleDescriptors.describe(fire) : null;
	}

	/**
	 * Pause a schedule on every node until resumed (a restart or a deploy that declares
	 * it again keeps it paused), or resume it: it next fires at its first time after now.
	 * @param queue the schedule's queue
	 * @param name the schedule name
	 * @param paused {@code true} to pause, {@code false} to resume
	 * @return the schedule as it is now, or {@code null} if this application runs no tick
	 * @throws io.echomq.schedule.UnknownScheduleException if there is no such schedule
	 */
	public ScheduleDescriptors.@Nullable ScheduleDescriptor pauseSchedule(String queue, String name, boolean paused) {
		EchoMqSchedules ticker = this.schedules;
		return (ticker != null)
				? ScheduleDescriptors.describe(paused ? ticker.pause(queue, name) : ticker.resume(queue, name)) : null;
	}

	/**
	 * Delete a schedule (a declared one comes back at the next start-up).
	 * @param queue the schedule's queue
	 * @param name the schedule name
	 * @return what was deleted, or {@code null} if this application runs no tick
	 * @throws io.echomq.schedule.UnknownScheduleException if there is no such schedule
	 */
	public ScheduleDescriptors.@Nullable DeletedScheduleDescriptor deleteSchedule(String queue, String name) {
		EchoMqSchedules ticker = this.schedules;
		if (ticker == null) {
			return null;
		}
		ticker.delete(queue, name);
		return new ScheduleDescriptors.DeletedScheduleDescriptor(queue, name);
	}

	/**
	 * Cancel a job, whatever its state (see {@link EchoMqAdmin#cancel(String, JobId)}).
	 * @param queue the queue
	 * @param id the job id
	 * @return what the cancel did
	 * @throws IllegalArgumentException if the queue name or the id is invalid (nothing
	 * was written)
	 */
	public JobDescriptors.CancelDescriptor cancel(String queue, String id) {
		Keyspace.validateQueueName(queue);
		JobId jobId = JobId.parse(id);
		CancelResult result = this.admin.cancel(queue, jobId);
		JobState state = result.state();
		return new JobDescriptors.CancelDescriptor(jobId.toString(),
				result.outcome().name().toLowerCase(java.util.Locale.ROOT), (state != null) ? state.value() : null,
				result.requestedAt(), result.detail());
	}

	/**
	 * Pause a queue cluster-wide: no node claims from it until it is resumed.
	 * @param queue the queue
	 * @param duration how long, or {@code null} until resumed
	 * @return the queue's pause
	 * @throws IllegalArgumentException if the name or duration is invalid
	 */
	public JobDescriptors.PauseDescriptor pauseQueue(String queue, @Nullable Duration duration) {
		Keyspace.validateQueueName(queue);
		boolean changed = this.admin.pause(queue, duration);
		return describePause(queue, changed);
	}

	EchoMqAdmin admin() {
		return this.admin;
	}

	/**
	 * Resume a queue paused cluster-wide.
	 * @param queue the queue
	 * @return the queue's pause
	 * @throws IllegalArgumentException if the name is invalid
	 */
	public JobDescriptors.PauseDescriptor resumeQueue(String queue) {
		Keyspace.validateQueueName(queue);
		boolean changed = this.admin.resume(queue);
		return describePause(queue, changed);
	}

	/**
	 * Pause, resume, cap or limit one lane of a queue cluster-wide.
	 * @param queue the queue
	 * @param lane the lane key
	 * @param action {@code pause}, {@code resume}, {@code cap} (with a cap),
	 * {@code uncap}, {@code limit} (with a max-active and/or a rate and period) or
	 * {@code unlimit}
	 * @param cap the pending cap for {@code cap}, else ignored
	 * @param maxActive the lane's own max-active for {@code limit}, else ignored
	 * @param rate the lane's own rate for {@code limit}, else ignored
	 * @return the lane's controls after the change, or {@code null} for an unknown action
	 * @throws IllegalArgumentException if the name, the lane key, the cap or a limit is
	 * invalid
	 */
	public JobDescriptors.@Nullable LaneDescriptor controlLane(String queue, String lane, String action,
			@Nullable Long cap, @Nullable Integer maxActive, FlowLimits.@Nullable RateLimit rate) {
		return LaneActions.control(this.admin, queue, lane, action, cap, maxActive, rate);
	}

	/**
	 * Return one lane's controls.
	 * @param queue the queue
	 * @param lane the lane key
	 * @return the lane's controls
	 * @throws IllegalArgumentException if the name or the lane key is invalid
	 */
	public JobDescriptors.LaneDescriptor lane(String queue, String lane) {
		return LaneActions.describe(this.admin, queue, lane, false);
	}

	private JobDescriptors.PauseDescriptor describePause(String queue, boolean changed) {
		Duration left = this.admin.pauseLeft(queue);
		boolean paused = left == null || !left.isZero();
		return new JobDescriptors.PauseDescriptor(queue, paused, (left != null && paused) ? left.toMillis() : null,
				changed);
	}

	private @Nullable QueueListenerContainer container(String queue) {
		Keyspace.validateQueueName(queue);
		return (this.listeners != null) ? this.listeners.getContainer(queue) : null;
	}

	private PartitionedStats stats(String queue) {
		return PartitionedStats.read(this.inspector, this.admin.getPartitioning().forQueue(queue));
	}

	private QueueDescriptor describe(String queue, PartitionedStats partitioned) {
		QueueListenerContainer container = (this.listeners != null) ? this.listeners.getContainer(queue) : null;
		Duration pause = this.admin.pauseLeft(queue);
		FlowLimits limits = (container != null) ? container.getSettings().limits() : null;
		Long startedInWindow = (limits != null && limits.isLimited()) ? startedInWindow(queue, limits) : null;
		return QueueDescriptors.describe(partitioned, pause == null || !pause.isZero(),
				this.maxAttempts.applyAsInt(queue), container, startedInWindow);
	}

	/**
	 * The starts in the rate limit's current window, on every node (summed over the
	 * partitions, each of which limits its share), or {@code null} without a rate limit.
	 */
	private @Nullable Long startedInWindow(String queue, FlowLimits limits) {
		FlowLimits.RateLimit rate = limits.rateLimit();
		if (rate == null) {
			return null;
		}
		long started = 0;
		for (String name : this.admin.getPartitioning().forQueue(queue).names()) {
			started += this.inspector.startedInWindow(name, rate.period());
		}
		return started;
	}

	/**
	 * Return a completed job's stored result (see {@code docs/results.md}).
	 * @param queue the queue
	 * @param id the job id
	 * @param showValues whether the result is shown unsanitized
	 * @return the result, or {@code null} when none is stored
	 * @throws IllegalArgumentException if the queue name or the id is not valid
	 */
	public JobDescriptors.@Nullable ResultDescriptor result(String queue, String id, boolean showValues) {
		Keyspace.validateQueueName(queue);
		JobId jobId = JobId.parse(id);
		String text = this.inspector.result(this.admin.getPartitioning().forQueue(queue).nameOf(jobId), jobId);
		if (text == null) {
			return null;
		}
		Object result = PayloadEncryption.isEncrypted(text) ? ENCRYPTED
				: this.sanitizer.sanitize(new SanitizableData(null, "result", text), showValues);
		return new JobDescriptors.ResultDescriptor(id, text.getBytes(StandardCharsets.UTF_8).length, result);
	}

	/**
	 * Return the whole flow a job belongs to: from its root down, each job's queue, id,
	 * state, progress and stored result, its parent and children, and the counts per
	 * state; at most {@value FlowTree#MAX_DRAWN} jobs (see {@link FlowTree}).
	 * @param queue the queue
	 * @param id the job id
	 * @param showValues whether results are shown unsanitized
	 * @return the flow, or {@code null} when the queue has no row for the job
	 * @throws IllegalArgumentException if the queue name or the id is not valid
	 * @since 0.2.0
	 */
	public FlowTree.@Nullable Flow flow(String queue, String id, boolean showValues) {
		Keyspace.validateQueueName(queue);
		JobId jobId = JobId.parse(id);
		return this.flows.read(this.admin.getPartitioning().forQueue(queue).nameOf(jobId), jobId,
				(text) -> PayloadEncryption.isEncrypted(text) ? ENCRYPTED
						: this.sanitizer.sanitize(new SanitizableData(null, "result", text), showValues));
	}

	/**
	 * Return one batch: its state, counts, callbacks and times (see {@link BatchView}).
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @return the batch, or {@code null} when the queue has no row for it
	 * @throws IllegalArgumentException if the queue name or the id is not valid
	 * @since 0.2.0
	 */
	public BatchView.@Nullable Batch batch(String queue, String id) {
		return this.batches.read(queue, JobId.parse(id));
	}

	/**
	 * Return the open and sealed batches of a queue, oldest first, at most
	 * {@value BatchView#MAX_LISTED}.
	 * @param queue the batches' home queue
	 * @return the batches and how many there are
	 * @throws IllegalArgumentException if the queue name is not valid
	 * @since 0.2.0
	 */
	public BatchView.Listing batches(String queue) {
		return this.batches.list(queue);
	}

	/**
	 * Return one job as its row says: its state, attempts, payload and the progress its
	 * handler last reported.
	 * @param queue the queue
	 * @param id the job id
	 * @param showValues whether the payload and the progress object are shown unsanitized
	 * @return the job, or {@code null} when the queue has no row for it
	 * @throws IllegalArgumentException if the queue name or the id is not valid
	 * @since 0.2.0
	 */
	public JobDescriptors.@Nullable JobDescriptor job(String queue, String id, boolean showValues) {
		Keyspace.validateQueueName(queue);
		JobId jobId = JobId.parse(id);
		Map<String, String> row = this.inspector.row(this.admin.getPartitioning().forQueue(queue).nameOf(jobId), jobId);
		if (row.isEmpty()) {
			return null;
		}
		String progress = row.get("progress");
		String progressData = row.get("progress_data");
		return new JobDescriptors.JobDescriptor(id, row.getOrDefault("state", ""), number(row.get("attempts")),
				number(row.get("max_attempts")), instant(row.get("enqueued_at")), row.get("last_error"),
				this.sanitizer
					.sanitize(new SanitizableData(null, "payload", row.getOrDefault("payload", "")), showValues),
				(progress != null) ? (int) number(progress) : null,
				(progressData != null)
						? this.sanitizer.sanitize(new SanitizableData(null, "progress_data", progressData), showValues)
						: null);
	}

	private static long number(@Nullable String value) {
		try {
			return (value != null) ? Long.parseLong(value) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	private static @Nullable Instant instant(@Nullable String millis) {
		return (millis != null) ? Instant.ofEpochMilli(number(millis)) : null;
	}

	private JobDescriptors.DeadJobDescriptor describe(JobView view, boolean showPayloads) {
		Object payload = PayloadEncryption.isEncrypted(view.payload()) ? ENCRYPTED
				: this.sanitizer.sanitize(new SanitizableData(null, "payload", view.payload()), showPayloads);
		return new JobDescriptors.DeadJobDescriptor(view.id().toString(), view.attempts(), view.maxAttempts(),
				view.enqueuedAt(), view.at(), view.lastError(), payload);
	}

}
