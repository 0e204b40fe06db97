package io.echomq.core;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Guards the partition count of a queue: the count in use is recorded in
 * {@code <prefix>:{<queue>}:partitions} (a string, on the slot of the unpartitioned
 * queue; absent means 1), and a different configured count is accepted only when the
 * recorded layout holds no job in any location. Otherwise the jobs would sit under keys
 * no producer, consumer or tick of the new layout looks at.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class PartitionCountCheck {

	private final Keyspace keyspace;

	private final StringRedisTemplate template;

	private final QueueInspector inspector;

	/**
	 * Create a check.
	 * @param jobs the engine
	 */
	public PartitionCountCheck(Jobs jobs) {
		Assert.notNull(jobs, "'jobs' must not be null");
		this.keyspace = jobs.keyspace();
		this.template = jobs.executor().getTemplate();
		this.inspector = new QueueInspector(jobs);
	}

	/**
	 * Return the partition count recorded for a queue.
	 * @param queue the logical queue name
	 * @return the count, 1 when none is recorded
	 */
	public int recorded(String queue) {
		String stored = this.template.opsForValue().get(this.keyspace.partitionsKey(queue));
		if (stored == null) {
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
	 * the configured count when the change is safe.
	 * @param configured the configured partitions
	 * @throws PartitionCountChangedException if the count changed while the recorded
	 * layout holds jobs (nothing was written)
	 */
	public void verify(QueuePartitions configured) {
		String queue = configured.queue();
		int recorded = recorded(queue);
		String key = this.keyspace.partitionsKey(queue);
		if (recorded == configured.count()) {
			if (configured.isPartitioned() && this.template.opsForValue().get(key) == null) {
				this.template.opsForValue().set(key, Integer.toString(configured.count()));
			}
			return;
		}
		long jobs = 0;
		for (String partition : QueuePartitions.of(queue, recorded).names()) {
			QueueStats stats = this.inspector.stats(partition);
			jobs += stats.pending() + stats.active() + stats.schedule() + stats.dead() + stats.quarantine();
		}
		if (jobs > 0) {
			throw new PartitionCountChangedException("Queue '" + queue + "' is configured with " + configured.count()
					+ " partition(s) but holds " + jobs + " job(s) in its " + recorded + " recorded partition(s) (" + key
					+ "); those jobs would be stranded. Set echomq.queues." + queue + ".partitions=" + recorded
					+ " again, or drain the queue (and purge its dead jobs) before changing the count. Nothing was written");
		}
		if (configured.isPartitioned()) {
			this.template.opsForValue().set(key, Integer.toString(configured.count()));
		}
		else {
			this.template.delete(key);
		}
	}

}
