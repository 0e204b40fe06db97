package io.echomq.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.echomq.EchoMqAdmin;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.EchoMqNode;
import io.echomq.core.FlowLimits;
import io.echomq.core.JobId;
import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.RowFields;
import io.echomq.crypto.PayloadEncryption;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import io.echomq.inspect.JobView;
import io.echomq.inspect.NodeListener;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueNodes;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.util.Assert;

/**
 * What the dashboard reads: queue counts and listeners, pages of each location, one job's
 * row and timeline, and the per-minute history, summed over the partitions of a
 * partitioned queue. It also knows the partitioning, and so the engine queue a job id
 * goes to.
 *
 * @author EchoMQ
 * @see EchoMqDashboard
 */
final class DashboardReads {

	private static final String PROGRESS = "progress";

	private static final String PROGRESS_DATA = "progress_data";

	private static final String RESULT = "result";

	/**
	 * Row fields the job page shows on their own rather than in the row's list; the
	 * handler's values among them are sanitized like the payload.
	 */
	private static final Set<String> SHOWN_APART = Set.of("payload", PROGRESS, PROGRESS_DATA, RESULT);

	private final QueueInspector inspector;

	private final PendingLanes lanes;

	private final QueueNodes nodes;

	private final EchoMqQueueCatalog catalog;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final QueueHistory history;

	/** What an encrypted value is shown as, whatever show-values says. */
	static final String ENCRYPTED = "encrypted";

	private final Sanitizer sanitizer;

	private final String node;

	private final QueueFlows flows;

	private final FlowTree tree;

	private final BatchView batches;

	private final EchoMqAdmin admin;

	private volatile Function<String, FlowLimits> limits = (queue) -> FlowLimits.none();

	DashboardReads(EchoMqAdmin admin, QueueInspector inspector, QueueNodes nodes, FlowTree tree, BatchView batches,
			EchoMqQueueCatalog catalog, @Nullable EchoJobListenerRegistry listeners, QueueHistory history,
			Sanitizer sanitizer, String node) {
		this.admin = admin;
		this.inspector = inspector;
		this.lanes = new PendingLanes(inspector);
		this.nodes = nodes;
		this.catalog = catalog;
		this.listeners = listeners;
		this.history = history;
		this.sanitizer = sanitizer;
		this.node = node;
		this.flows = new QueueFlows(inspector);
		this.tree = tree;
		this.batches = batches;
	}

	void setLimits(Function<String, FlowLimits> limits) {
		this.limits = limits;
	}

	QueuePartitions partitions(String queue) {
		return this.admin.getPartitioning().forQueue(queue);
	}

	Overview overview() {
		List<QueueSummary> queues = new ArrayList<>();
		for (String queue : this.catalog.queues()) {
			queues.add(summary(queue, stats(queue)));
		}
		return new Overview(this.node, this.history.isKept(), queues);
	}

	@Nullable QueueSummary queue(String queue) {
		Keyspace.validateQueueName(queue);
		PartitionedStats stats = stats(queue);
		if (!this.catalog.contains(queue) && isEmpty(stats.total())) {
			return null;
		}
		return summary(queue, stats);
	}

	@Nullable JobPage jobs(String queue, JobState state, int offset, int limit, boolean show, @Nullable Integer partition) {
		Assert.isTrue(offset >= 0, () -> "offset must not be negative, was " + offset);
		Assert.isTrue(limit > 0 && limit <= EchoMqDashboard.MAX_PAGE,
				() -> "limit must be between 1 and " + EchoMqDashboard.MAX_PAGE + ", was " + limit);
		Keyspace.validateQueueName(queue);
		QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
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
		Assert.isTrue(!merged || offset + limit <= EchoMqDashboard.MAX_MERGED,
				() -> "offset + limit must be at most " + EchoMqDashboard.MAX_MERGED + " across the "
						+ partitions.count() + " partitions of '" + queue + "', was " + (offset + limit)
						+ ": choose a partition (partition=0-" + (partitions.count() - 1) + ") to page further");
		List<JobView> views = new ArrayList<>(
				(engineName != null) ? this.inspector.jobs(engineName, state, offset, limit)
						: this.inspector.jobs(partitions, state, offset, limit));
		Map<String, String> laneOf = new LinkedHashMap<>();
		if (state == JobState.PENDING) {
			this.lanes.fill((engineName != null) ? List.of(engineName) : partitions.names(), offset, limit, views,
					laneOf);
		}
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
				merged ? EchoMqDashboard.MAX_MERGED : null, partitionOf, laneOf);
	}

	@Nullable JobDetail job(String queue, JobId id, boolean show) {
		Keyspace.validateQueueName(queue);
		QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
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
			if (!SHOWN_APART.contains(name)) {
				fields.put(name, RowFields.RESERVED.contains(name) ? value : sanitize(name, value, show));
			}
		});
		String state = row.getOrDefault("state", "");
		Object payload = sanitize("payload", row.getOrDefault("payload", ""), show);
		Long progress = parse(row.get(PROGRESS));
		String progressData = row.get(PROGRESS_DATA);
		String result = row.get(RESULT);
		return new JobDetail(queue, id.toString(), state, number(row.get("attempts")), number(row.get("released")),
				number(row.get("max_attempts")), row.get("last_error"), payload, fields, timeline(row, state, at),
				problem, partitions.isPartitioned() ? engineName : null, row.get(EchoMqNode.CLAIMED_BY_FIELD),
				(progress != null) ? progress.intValue() : null,
				(progressData != null) ? sanitize(PROGRESS_DATA, progressData, show) : null,
				(result != null) ? sanitize(RESULT, result, show) : null);
	}

	FlowTree.@Nullable Flow flow(String queue, JobId id, boolean show) {
		return this.tree.read(engineName(queue, id), id, (result) -> sanitize(RESULT, result, show));
	}

	BatchView.@Nullable Batch batch(String queue, JobId id) {
		return this.batches.read(queue, id);
	}

	BatchView.Listing batches(String queue) {
		return this.batches.list(queue);
	}

	@Nullable String findQueue(JobId id) {
		for (String queue : this.catalog.queues()) {
			QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
			if (partitions.isPartitioned() && id.partition() >= partitions.count()) {
				continue;
			}
			if (!this.inspector.row(partitions.nameOf(id), id).isEmpty()) {
				return queue;
			}
		}
		return null;
	}

	History history(int minutes) {
		Assert.isTrue(minutes > 0 && minutes <= QueueHistory.MAX_MINUTES,
				() -> "minutes must be between 1 and " + QueueHistory.MAX_MINUTES + ", was " + minutes);
		Map<String, List<QueueHistory.Minute>> queues = new LinkedHashMap<>();
		if (this.history.isKept()) {
			for (String queue : this.catalog.queues()) {
				queues.put(queue, minutes(this.admin.getPartitioning().forQueue(queue), minutes));
			}
		}
		return new History(this.history.isKept(), queues);
	}

	String engineName(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		return this.admin.getPartitioning().forQueue(queue).nameOf(id);
	}

	private QueueSummary summary(String queue, PartitionedStats partitioned) {
		QueueStats stats = partitioned.total();
		QueueListenerContainer container = (this.listeners != null) ? this.listeners.getContainer(queue) : null;
		QueuePartitions partitions = this.admin.getPartitioning().forQueue(queue);
		Duration left = this.admin.pauseLeft(queue);
		FlowLimits limits = (container != null) ? container.getSettings().limits() : this.limits.apply(queue);
		return new QueueSummary(queue, QueueFlows.counts(stats), new LinkedHashMap<>(stats.counters()),
				(container != null) ? listener(container) : null, left == null || !left.isZero(),
				this.flows.read(partitions, partitioned, limits, left, this.admin.limits(queue)), nodes(queue));
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
		return PartitionedStats.read(this.inspector, this.admin.getPartitioning().forQueue(queue));
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
		return new ListenerSummary(this.node, container.getId(), container.getConcurrency(), container.isRunning(),
				container.isPaused(), container.isPollerAlive(), container.inFlight(), container.getCompletedCount(),
				container.getRetriedCount(), container.getDeadCount(), container.getStaleCount());
	}

	private @Nullable Object sanitize(String key, String value, boolean show) {
		if (PayloadEncryption.isEncrypted(value)) {
			return ENCRYPTED;
		}
		return this.sanitizer.sanitize(new SanitizableData(null, key, value), show);
	}

	private static @Nullable Object preview(@Nullable Object payload) {
		if (payload instanceof String text && text.length() > EchoMqDashboard.PREVIEW_LENGTH) {
			return text.substring(0, EchoMqDashboard.PREVIEW_LENGTH) + "…";
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

	private static boolean isEmpty(QueueStats stats) {
		for (JobState state : JobState.values()) {
			if (stats.count(state) > 0) {
				return false;
			}
		}
		return stats.counters().isEmpty();
	}

}
