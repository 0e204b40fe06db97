package io.echomq.chaos.worker;

import java.util.Map;

import io.echomq.core.JobId;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Counts finished handler runs per job in a Redis hash ({@code HINCRBY <key> <id> 1}), so
 * that runs in a worker JVM that is later killed are still counted. The key is outside
 * the queue's keyspace, so the audit does not see it.
 *
 * @author EchoMQ
 */
public final class RedisRunLedger {

	private final StringRedisTemplate template;

	private final String key;

	/**
	 * Create a ledger.
	 * @param template the template to write with
	 * @param prefix the key prefix of the run
	 * @param queue the queue
	 */
	public RedisRunLedger(StringRedisTemplate template, String prefix, String queue) {
		this.template = template;
		this.key = "chaos:" + prefix + ":" + queue + ":runs";
	}

	/**
	 * Record that a handler run of a job finished.
	 * @param id the job
	 */
	public void ran(JobId id) {
		this.template.opsForHash().increment(this.key, id.toString(), 1);
	}

	/**
	 * Return how many distinct jobs finished a handler run.
	 * @return the distinct count
	 */
	public long distinct() {
		Long size = this.template.opsForHash().size(this.key);
		return (size != null) ? size : 0;
	}

	/**
	 * Return the finished runs per job.
	 * @return runs by job id
	 */
	public Map<String, Long> runs() {
		Map<String, String> entries = this.template.<String, String>opsForHash().entries(this.key);
		return entries.entrySet()
			.stream()
			.collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, (entry) -> Long.parseLong(entry.getValue())));
	}

}
