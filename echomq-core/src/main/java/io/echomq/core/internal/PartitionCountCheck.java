package io.echomq.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.echomq.core.JobState;
import io.echomq.core.Keyspace;
import io.echomq.core.PartitionCountChangedException;
import io.echomq.core.QueuePartitions;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Guards the partition count of a queue: the count in use is recorded in
 * {@code <prefix>:{<queue>}:partitions} (a string, on the slot of the unpartitioned
 * queue; absent means 1), and a different configured count is accepted only when the
 * recorded layout holds no job in any location and no running application holds the
 * recorded count. Otherwise the jobs would sit under keys no producer, consumer or tick
 * of the new layout looks at.
 * <p>
 * An application {@linkplain #join joins} a queue's count when it starts and
 * {@linkplain #renew renews} that hold while it runs: the record and the holders
 * ({@code <prefix>:{<queue>}:partitions:holders}) share one slot, and one script compares
 * the record with what the caller read, refuses while a live holder uses another count,
 * and only then writes. So of two applications that start with different counts at the
 * same time exactly one wins; the other fails with a
 * {@link PartitionCountChangedException}, as does one that starts with another count
 * while an application holding the recorded count runs. What one script cannot cover is
 * the check that the old layout is empty: its partitions live on other slots, so they are
 * read before the script runs. A job written there in between, by a producer that holds
 * no count (a template used without this check) or whose hold lapsed (it could not renew
 * for the whole hold), is stranded; a holder whose renewal finds the record changed is
 * told so ({@link #renew}), and stops using the layout.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class PartitionCountCheck {

	/** How long a hold lasts unless renewed; holders renew every third of it. */
	public static final Duration DEFAULT_HOLD = Duration.ofSeconds(30);

	private static final Script SCRIPT = Script.load("partitions");

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final ScriptExecutor executor;

	/**
	 * Create a check.
	 * @param keyspace the keyspace the counts are recorded in
	 * @param executor the script executor
	 */
	public PartitionCountCheck(Keyspace keyspace, ScriptExecutor executor) {
		Assert.notNull(keyspace, "'keyspace' must not be null");
		Assert.notNull(executor, "'executor' must not be null");
		this.keyspace = keyspace;
		this.executor = executor;
		this.template = executor.getTemplate();
	}

	/**
	 * Return the partition count recorded for a queue.
	 * @param queue the logical queue name
	 * @return the count, 1 when none is recorded
	 */
	public int recorded(String queue) {
		return parse(queue, this.template.opsForValue().get(this.keyspace.partitionsKey(queue)));
	}

	private int parse(String queue, @Nullable String stored) {
		if (stored == null || stored.isEmpty()) {
			return 1;
		}
		try {
			return QueuePartitions.checkCount(queue, Integer.parseInt(stored));
		}
		catch (IllegalArgumentException ex) {
			throw new PartitionCountChangedException("Queue '" + queue + "' records a partition count of '" + stored
					+ "' in " + this.keyspace.partitionsKey(queue) + ", which is not 1-"
					+ QueuePartitions.MAX_PARTITIONS + "; fix or delete that key");
		}
	}

	/**
	 * Check the configured partitions of a queue against the recorded count, and record
	 * the configured count when the change is safe, holding it for a moment only (see
	 * {@link #join}).
	 * @param configured the configured partitions
	 * @throws PartitionCountChangedException if the count changed while the recorded
	 * layout holds jobs, or changed concurrently (nothing was written)
	 */
	public void verify(QueuePartitions configured) {
		join(configured, "check-" + UUID.randomUUID(), Duration.ofMillis(1));
	}

	/**
	 * Check the configured partitions of a queue against the recorded count, record the
	 * configured count when the change is safe, and hold it: until the hold lapses (or
	 * {@link #leave}) no other application can record another count.
	 * @param configured the configured partitions
	 * @param holder an id unique to the application instance
	 * @param hold how long the hold lasts unless renewed
	 * @throws PartitionCountChangedException if the count changed while the recorded
	 * layout holds jobs, while a running application holds it, or concurrently (nothing
	 * was written)
	 */
	public void join(QueuePartitions configured, String holder, Duration hold) {
		String queue = configured.queue();
		String key = this.keyspace.partitionsKey(queue);
		String stored = this.template.opsForValue().get(key);
		int recorded = parse(queue, stored);
		if (recorded != configured.count()) {
			long jobs = 0;
			for (String partition : QueuePartitions.of(queue, recorded).names()) {
				jobs += jobs(partition);
			}
			if (jobs > 0) {
				throw new PartitionCountChangedException("Queue '" + queue + "' is configured with "
						+ configured.count() + " partition(s) but holds " + jobs + " job(s) in its " + recorded
						+ " recorded partition(s) (" + key + "); those jobs would be stranded. Set echomq.queues."
						+ queue + ".partitions=" + recorded
						+ " again, or drain the queue (and purge its dead jobs) before changing the count. Nothing was written");
			}
		}
		List<Object> reply = call("join", configured, (stored != null) ? stored : "", holder, hold);
		String outcome = Replies.string(reply.get(0));
		if ("changed".equals(outcome)) {
			throw new PartitionCountChangedException("The partition count of queue '" + queue
					+ "' was changed by another application while this one (configured with " + configured.count()
					+ ") checked it: " + key + " went from " + parse(queue, stored) + " to "
					+ parse(queue, Replies.string(reply.get(1))) + ". Start again with echomq.queues." + queue
					+ ".partitions=" + parse(queue, Replies.string(reply.get(1))) + ". Nothing was written");
		}
		if ("held".equals(outcome)) {
			String other = Replies.string(reply.get(1));
			throw new PartitionCountChangedException("Queue '" + queue + "' is configured with " + configured.count()
					+ " partition(s) but a running application uses " + other.substring(0, other.indexOf(':'))
					+ " (holder " + other.substring(other.indexOf(':') + 1) + " in "
					+ this.keyspace.partitionHoldersKey(queue) + "); stop every application of the old count, "
					+ "drain the queue, then start with the new one. Nothing was written");
		}
	}

	/**
	 * Renew a hold taken by {@link #join}.
	 * @param configured the partitions the holder uses
	 * @param holder the holder id
	 * @param hold how long the hold lasts from now
	 * @throws PartitionCountChangedException if the recorded count is no longer the
	 * holder's (its hold lapsed and another application changed it): the holder must stop
	 * using its layout
	 */
	public void renew(QueuePartitions configured, String holder, Duration hold) {
		String expected = configured.isPartitioned() ? Integer.toString(configured.count()) : "";
		List<Object> reply = call("join", configured, expected, holder, hold);
		String outcome = Replies.string(reply.get(0));
		if (!"ok".equals(outcome)) {
			String queue = configured.queue();
			throw new PartitionCountChangedException("The partition count of queue '" + queue + "' is no longer "
					+ configured.count() + " (" + outcome + ": " + Replies.string(reply.get(1)) + " in "
					+ this.keyspace.partitionsKey(queue) + "), which this application uses: another application "
					+ "changed it while this one could not renew its hold");
		}
	}

	/**
	 * Give up a hold taken by {@link #join}.
	 * @param configured the partitions the holder uses
	 * @param holder the holder id
	 */
	public void leave(QueuePartitions configured, String holder) {
		call("leave", configured, "", holder, Duration.ofMillis(1));
	}

	private long jobs(String partition) {
		long jobs = 0;
		for (JobState state : List.of(JobState.PENDING, JobState.ACTIVE, JobState.SCHEDULE, JobState.DEAD,
				JobState.QUARANTINE)) {
			Long size = this.template.opsForZSet().zCard(this.keyspace.locationKey(partition, state));
			jobs += (size != null) ? size : 0;
		}
		return jobs;
	}

	private List<Object> call(String mode, QueuePartitions configured, String expected, String holder, Duration hold) {
		String queue = configured.queue();
		return this.executor.execute(SCRIPT,
				List.of(this.keyspace.partitionsKey(queue), this.keyspace.partitionHoldersKey(queue)),
				List.of(mode, expected, Integer.toString(configured.count()), holder,
						Long.toString(Math.max(1, hold.toMillis()))));
	}

}
