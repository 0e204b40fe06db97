package io.echomq.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.QueuePartitioning;
import io.echomq.inspect.PartitionedStats;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.maintenance.MaintenanceStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.dao.DataAccessException;
import org.springframework.util.Assert;

/**
 * Health of EchoMQ in this application, beside Boot's {@code redis} indicator (which it
 * does not repeat): DOWN when a running listener's poller thread died, when the
 * maintenance runs but its reap or promote tick has not succeeded for
 * {@value #STALL_FACTOR} intervals, or when a queue holds at least the dead-job
 * threshold, if one is set. Scripts missing from the server's cache ({@code NOSCRIPT} is
 * recovered by sending the body), paused listeners, and each queue's pending, dead and
 * reaped counts are details.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqHealthIndicator extends AbstractHealthIndicator {

	/** Intervals without a successful tick after which maintenance counts as stalled. */
	public static final int STALL_FACTOR = 10;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	private final QueueInspector inspector;

	private final EchoMqQueueCatalog catalog;

	private final @Nullable EchoJobListenerRegistry listeners;

	private final @Nullable MaintenanceStatus maintenance;

	private final @Nullable Long deadThreshold;

	private final Clock clock;

	private volatile @Nullable Instant maintenanceSeenRunning;

	/**
	 * Create an indicator.
	 * @param inspector reads the queues and the scripts the server has cached
	 * @param catalog the queues to report on
	 * @param listeners the listener registry, or {@code null}
	 * @param maintenance the maintenance ticks, or {@code null}
	 * @param deadThreshold dead jobs in one queue at or above which the status is DOWN,
	 * or {@code null} to report them only
	 */
	public EchoMqHealthIndicator(QueueInspector inspector, EchoMqQueueCatalog catalog,
			@Nullable EchoJobListenerRegistry listeners, @Nullable MaintenanceStatus maintenance,
			@Nullable Long deadThreshold) {
		this(inspector, catalog, listeners, maintenance, deadThreshold, Clock.systemUTC());
	}

	EchoMqHealthIndicator(QueueInspector inspector, EchoMqQueueCatalog catalog,
			@Nullable EchoJobListenerRegistry listeners, @Nullable MaintenanceStatus maintenance,
			@Nullable Long deadThreshold, Clock clock) {
		super("EchoMQ health check failed");
		Assert.notNull(inspector, "'inspector' must not be null");
		Assert.notNull(catalog, "'catalog' must not be null");
		this.inspector = inspector;
		this.catalog = catalog;
		this.listeners = listeners;
		this.maintenance = maintenance;
		this.deadThreshold = deadThreshold;
		this.clock = clock;
	}

	/**
	 * Set how many partitions each queue has: a partitioned queue is reported as the sums
	 * over its partitions (the dead threshold applies to the sum) and each partition.
	 * @param partitioning the partitioning
	 */
	public void setPartitioning(QueuePartitioning partitioning) {
		Assert.notNull(partitioning, "'partitioning' must not be null");
		this.partitioning = partitioning;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<String> problems = new ArrayList<>();
		builder.withDetail("scripts", scripts());
		if (this.listeners != null) {
			builder.withDetail("listeners", listeners(this.listeners, problems));
		}
		if (this.maintenance != null) {
			builder.withDetail("maintenance", maintenance(this.maintenance, problems));
		}
		builder.withDetail("queues", queues(problems));
		if (problems.isEmpty()) {
			builder.up();
		}
		else {
			builder.down().withDetail("problems", problems);
		}
	}

	private Map<String, Object> scripts() {
		Map<String, Object> details = new LinkedHashMap<>();
		try {
			Map<String, Boolean> cached = this.inspector.scripts();
			List<String> missing = cached.entrySet()
				.stream()
				.filter((script) -> !script.getValue())
				.map(Map.Entry::getKey)
				.toList();
			details.put("total", cached.size());
			details.put("loaded", cached.size() - missing.size());
			if (!missing.isEmpty()) {
				details.put("notLoaded", missing);
			}
		}
		catch (DataAccessException | UnsupportedOperationException ex) {
			details.put("error", String.valueOf(ex.getMessage()));
		}
		return details;
	}

	private static Map<String, Object> listeners(EchoJobListenerRegistry registry, List<String> problems) {
		Map<String, Object> details = new LinkedHashMap<>();
		for (QueueListenerContainer container : registry.getContainers().values()) {
			Map<String, Object> listener = new LinkedHashMap<>();
			listener.put("id", container.getId());
			listener.put("running", container.isRunning());
			listener.put("paused", container.isPaused());
			listener.put("pollerAlive", container.isPollerAlive());
			listener.put("inFlight", container.inFlight());
			listener.put("concurrency", container.getSettings().concurrency());
			listener.put("consecutiveFailures", container.getConsecutiveFailures());
			details.put(container.getQueue(), listener);
			if (container.isRunning() && !container.isPollerAlive()) {
				problems.add("The poller of listener '" + container.getId() + "' on queue '" + container.getQueue()
						+ "' is not alive");
			}
		}
		return details;
	}

	private Map<String, Object> maintenance(MaintenanceStatus maintenance, List<String> problems) {
		Map<String, Object> details = new LinkedHashMap<>();
		boolean running = maintenance.isRunning();
		details.put("running", running);
		details.put("lastReap", String.valueOf(maintenance.getLastReap()));
		details.put("lastPromote", String.valueOf(maintenance.getLastPromote()));
		details.put("reapTicks", maintenance.getReapTicks());
		details.put("promoteTicks", maintenance.getPromoteTicks());
		details.put("failedTicks", maintenance.getFailedTicks());
		Instant now = this.clock.instant();
		if (!running) {
			this.maintenanceSeenRunning = null;
			return details;
		}
		Instant seen = this.maintenanceSeenRunning;
		if (seen == null) {
			seen = now;
			this.maintenanceSeenRunning = seen;
		}
		checkTick("reap", maintenance.getLastReap(), maintenance.reapBound(), seen, now, problems);
		checkTick("promote", maintenance.getLastPromote(), maintenance.promoteBound(), seen, now, problems);
		return details;
	}

	private static void checkTick(String tick, @Nullable Instant last, Duration interval, Instant seen, Instant now,
			List<String> problems) {
		Instant since = (last != null && last.isAfter(seen)) ? last : seen;
		Duration age = Duration.between(since, now);
		Duration limit = interval.multipliedBy(STALL_FACTOR);
		if (age.compareTo(limit) > 0) {
			problems.add("The maintenance " + tick + " tick has not succeeded for " + age.toMillis() + " ms (interval "
					+ interval.toMillis() + " ms)");
		}
	}

	private Map<String, Object> queues(List<String> problems) {
		Map<String, Object> details = new LinkedHashMap<>();
		for (String queue : this.catalog.queues()) {
			try {
				PartitionedStats partitioned = PartitionedStats.read(this.inspector, this.partitioning.forQueue(queue));
				QueueStats stats = partitioned.total();
				Map<String, Object> entry = new LinkedHashMap<>();
				entry.put("pending", stats.pending());
				entry.put("dead", stats.dead());
				if (stats.quarantine() > 0) {
					entry.put("quarantine", stats.quarantine());
				}
				entry.put("reaped", stats.counters().getOrDefault("reaped", 0L));
				if (partitioned.isPartitioned()) {
					Map<String, Object> partitions = new LinkedHashMap<>();
					partitioned.partitions()
						.forEach((name, each) -> partitions.put(name,
								Map.of("pending", each.pending(), "dead", each.dead())));
					entry.put("partitions", partitions);
				}
				details.put(queue, entry);
				if (this.deadThreshold != null && stats.dead() >= this.deadThreshold) {
					problems.add("Queue '" + queue + "' holds " + stats.dead() + " dead jobs (threshold "
							+ this.deadThreshold + ")");
				}
			}
			catch (DataAccessException ex) {
				details.put(queue, Map.of("error", String.valueOf(ex.getMessage())));
			}
		}
		return details;
	}

}
