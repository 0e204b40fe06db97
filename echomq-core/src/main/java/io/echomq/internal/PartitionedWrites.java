package io.echomq.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.EnqueueOutcomeUnknownException;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.PartitionUnavailableException;
import io.echomq.core.QueuePartitions;
import io.echomq.core.UniqueKey;
import io.echomq.core.internal.PartitionOutages;
import io.echomq.core.internal.ServerFailures;
import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;

/**
 * How a template spreads the jobs of a partitioned queue: which partition each job goes
 * to (its key's, or round-robin past the partitions that just failed), and the write of
 * each partition's share, failing over to the next partition that is up while its server
 * is unavailable.
 *
 * @author EchoMQ
 * @see EchoMqTemplate
 */
public final class PartitionedWrites {

	// the template's own category, so that its failover lines read as they did
	private static final LogAccessor logger = new LogAccessor(EchoMqTemplate.class);

	private static final Duration FAILOVER_PAUSE = Duration.ofMillis(50);

	private static final Duration FAILOVER_MAX_PAUSE = Duration.ofMillis(500);

	private final PartitionOutages outages = new PartitionOutages(Duration.ofSeconds(1), Duration.ofSeconds(8));

	private final AtomicLong roundRobin = new AtomicLong(
			ThreadLocalRandom.current().nextInt(QueuePartitions.MAX_PARTITIONS));

	private volatile Duration failoverTimeout = Duration.ofSeconds(5);

	/**
	 * Set how long a share keeps failing over while every partition refuses it.
	 * @param timeout the longest wait
	 */
	public void setFailoverTimeout(Duration timeout) {
		this.failoverTimeout = timeout;
	}

	/**
	 * The partition of each job: all in the partition of the key when there is one,
	 * round-robin otherwise, passing over the partitions that just failed while others
	 * are up; {@code null} for a queue with one partition.
	 */
	public int @Nullable [] route(QueuePartitions partitions, EnqueueOptions options, int count) {
		if (!partitions.isPartitioned()) {
			return null;
		}
		int[] routes = new int[count];
		// a lane lives in one partition, so that its round-robin turn and its limits stay
		// atomic
		String key = (options.partitionKey() != null) ? options.partitionKey() : options.lane();
		if (key != null) {
			Arrays.fill(routes, partitions.partitionForKey(key));
			return routes;
		}
		long start = this.roundRobin.getAndAdd(count);
		for (int i = 0; i < count; i++) {
			routes[i] = up(partitions, (int) Math.floorMod(start + i, (long) partitions.count()), Set.of());
		}
		return routes;
	}

	/**
	 * The first partition from {@code from} on that is neither down nor tried, else the
	 * first one not tried, else {@code from}.
	 */
	private int up(QueuePartitions partitions, int from, Set<Integer> tried) {
		int untried = -1;
		for (int i = 0; i < partitions.count(); i++) {
			int partition = (from + i) % partitions.count();
			if (!tried.contains(partition)) {
				if (!this.outages.isDown(partitions.name(partition))) {
					return partition;
				}
				untried = (untried < 0) ? partition : untried;
			}
		}
		return (untried >= 0) ? untried : from;
	}

	/**
	 * Write each partition's share in turn. Each share is written as an unpartitioned
	 * batch is; when one fails after others were written, the failure names them. With
	 * {@code failover}, a share whose partition's server is unavailable goes to the next
	 * partition instead ({@link #writeShare}).
	 */
	public void write(QueuePartitions partitions, int[] routes, List<JobId> ids, List<String> texts, boolean failover,
			ShareWriter writer) {
		List<JobId> enqueued = new ArrayList<>();
		List<JobId> unknown = new ArrayList<>();
		for (int partition = 0; partition < partitions.count(); partition++) {
			List<Integer> share = new ArrayList<>();
			for (int i = 0; i < routes.length; i++) {
				if (routes[i] == partition) {
					share.add(i);
				}
			}
			if (share.isEmpty()) {
				continue;
			}
			try {
				writeShare(partitions, partition, share, ids, texts, failover, writer);
				share.forEach((i) -> enqueued.add(ids.get(i)));
			}
			catch (PartialEnqueueException ex) {
				enqueued.addAll(ex.getEnqueued());
				unknown.addAll(ex.getUnknown());
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				if (enqueued.isEmpty() && unknown.size() == ids.size()) {
					throw new EnqueueOutcomeUnknownException(partitions.queue(), unknown, cause);
				}
				throw new PartialEnqueueException(partitions.queue(), ids.size(), enqueued, unknown, cause);
			}
			catch (RuntimeException ex) {
				if (enqueued.isEmpty()) {
					throw ex;
				}
				throw new PartialEnqueueException(partitions.queue(), ids.size(), enqueued, unknown, ex);
			}
		}
	}

	/**
	 * Write the jobs at {@code share} (indexes into {@code ids} and {@code texts}) to a
	 * partition. When the partition's server is unavailable ({@link ServerFailures}) and
	 * {@code failover} is on, the share gets new ids in the next partition that is up and
	 * is written there, each partition at most once per round (those that just failed
	 * only when all did); a new round starts, after a pause, while the
	 * {@linkplain #setFailoverTimeout failover timeout} lasts (the whole cluster refuses
	 * writes between a master's failure and its replica's promotion). Any other failure,
	 * such as a script's error or a batch written in part, is thrown at once. A refusal
	 * certainly wrote nothing. A write that got no reply may have applied on the failed
	 * master just before it died: its jobs are then written twice (under two ids), which
	 * the at-least-once contract of every handler covers; the alternative, an exception,
	 * would have the caller enqueue again all the same.
	 */
	private void writeShare(QueuePartitions partitions, int partition, List<Integer> share, List<JobId> ids,
			List<String> texts, boolean failover, ShareWriter writer) {
		List<String> shareTexts = share.stream().map(texts::get).toList();
		long deadline = System.nanoTime() + this.failoverTimeout.toNanos();
		Set<Integer> tried = new HashSet<>();
		long pause = FAILOVER_PAUSE.toNanos();
		int current = partition;
		while (true) {
			String name = partitions.name(current);
			List<JobId> shareIds = share.stream().map(ids::get).toList();
			RuntimeException failure;
			try {
				writer.write(name, shareIds, shareTexts);
				this.outages.succeeded(name);
				return;
			}
			catch (PartialEnqueueException ex) {
				if (!ex.getEnqueued().isEmpty() || ex.getCause() == null
						|| !ServerFailures.isUnavailable(ex.getCause())) {
					throw ex;
				}
				failure = ex;
			}
			catch (RuntimeException ex) {
				if (!ServerFailures.isRefusal(ex)) {
					throw ex;
				}
				failure = ex;
			}
			this.outages.failed(name);
			if (!failover) {
				throw unavailable(partitions, current, failure);
			}
			tried.add(current);
			int next = next(partitions, current, tried);
			if (next < 0) {
				// every partition that is up refused (the cluster is down until a replica
				// is promoted)
				if (System.nanoTime() + pause - deadline > 0) {
					throw failure;
				}
				sleep(pause);
				pause = Math.min(pause * 2, FAILOVER_MAX_PAUSE.toNanos());
				tried.clear();
				next = up(partitions, (current + 1) % partitions.count(), tried);
			}
			current = next;
			String target = partitions.name(current);
			logger.debug(failure, () -> "Enqueue to " + name + " failed; failing over to " + target);
			for (int i : share) {
				ids.set(i, JobId.mint(current));
			}
		}
	}

	/**
	 * The partition to try next in this round: the first one after {@code current} that
	 * is up and not tried, or, when every partition is down, the first one not tried;
	 * {@code -1} when the round is over.
	 */
	private int next(QueuePartitions partitions, int current, Set<Integer> tried) {
		boolean allDown = true;
		for (int i = 0; i < partitions.count(); i++) {
			allDown &= this.outages.isDown(partitions.name(i));
		}
		for (int i = 1; i <= partitions.count(); i++) {
			int candidate = (current + i) % partitions.count();
			if (!tried.contains(candidate) && (allDown || !this.outages.isDown(partitions.name(candidate)))) {
				return candidate;
			}
		}
		return -1;
	}

	public static PartitionUnavailableException unavailable(QueuePartitions partitions, int partition,
			Throwable failure) {
		Throwable cause = (failure instanceof PartialEnqueueException && failure.getCause() != null)
				? failure.getCause() : failure;
		return new PartitionUnavailableException("Cannot enqueue to partition " + partition + " ("
				+ partitions.name(partition) + ") of queue '" + partitions.queue() + "': its server is unavailable ("
				+ cause.getMessage() + "). The job's partition key, lane or unique key (or its id, already handed "
				+ "out by a deferred enqueue) binds it to that partition, so it does not fail over; "
				+ (ServerFailures.isRefusal(cause) ? "nothing was written" : "it may or may not have been written"),
				failure);
	}

	private static void sleep(long nanos) {
		try {
			Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while failing an enqueue over to another partition", ex);
		}
	}

	/**
	 * The id a unique job gets, minted in the partition its key routes to (the partition
	 * key when there is one, else the unique key), so that every enqueue with one unique
	 * key meets the same key.
	 */
	public JobId mintUnique(QueuePartitions partitions, EnqueueOptions options) {
		if (!partitions.isPartitioned()) {
			return JobId.mint();
		}
		UniqueKey unique = options.unique();
		String key = (options.partitionKey() != null) ? options.partitionKey()
				: (options.lane() != null) ? options.lane() : (unique != null) ? unique.name() : null;
		return (key != null) ? JobId.mint(partitions.partitionForKey(key))
				: JobId.mint((int) Math.floorMod(this.roundRobin.getAndIncrement(), (long) partitions.count()));
	}

	/**
	 * Writes a share of a batch to one partition.
	 */
	@FunctionalInterface
	public interface ShareWriter {

		/**
		 * Write jobs to one partition.
		 * @param engineQueue the partition's engine queue name
		 * @param ids the ids of the jobs
		 * @param texts their payloads
		 */
		void write(String engineQueue, List<JobId> ids, List<String> texts);

	}

}
