package io.echomq.core.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.JobId;
import io.echomq.core.QueuePartitions;
import io.echomq.core.ResultTooLargeException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Job results: the bounds a result is written within (its size cap, and how long a queue
 * that retains no completed jobs keeps it), and the read of a stored result. The
 * completing scripts write a result in the same move as the completion
 * ({@link Outcomes#complete(String, JobId, FencingToken, String, String)}): on the row
 * while the queue retains its completed jobs, else in
 * {@link io.echomq.core.Keyspace#resultKey(String, JobId) its own key} with a TTL.
 *
 * @author EchoMQ
 */
public final class Results extends EnginePart {

	/** The default size cap of a serialized result: 64 KB. */
	public static final long DEFAULT_MAX_BYTES = 64 * 1024;

	/** The size cap of a progress object, as the payload converter writes it: 4 KB. */
	public static final long MAX_PROGRESS_BYTES = 4 * 1024;

	/** How long a queue without retention keeps a result by default. */
	public static final Duration DEFAULT_TTL = Duration.ofMinutes(10);

	private volatile long maxBytes = DEFAULT_MAX_BYTES;

	private volatile Duration defaultTtl = DEFAULT_TTL;

	private final Map<String, Duration> ttls = new ConcurrentHashMap<>();

	Results(EngineState state) {
		super(state);
	}

	/**
	 * Set the size cap of a serialized result, for every queue.
	 * @param maxBytes the most bytes, at least 1
	 */
	public void maxBytes(long maxBytes) {
		Assert.isTrue(maxBytes > 0, () -> "the result size cap must be positive, was " + maxBytes);
		this.maxBytes = maxBytes;
	}

	/**
	 * Return the size cap of a serialized result.
	 * @return the most bytes
	 */
	public long maxBytes() {
		return this.maxBytes;
	}

	/**
	 * Set how long a queue that retains no completed jobs keeps a result, for every queue
	 * without a TTL of its own.
	 * @param ttl the time, at least 1 ms
	 */
	public void ttl(Duration ttl) {
		ScriptCalls.requirePositive(ttl, "result ttl");
		this.defaultTtl = ttl;
	}

	/**
	 * Set how long a queue that retains no completed jobs keeps a result.
	 * @param queue the queue
	 * @param ttl the time, at least 1 ms
	 */
	public void ttl(String queue, Duration ttl) {
		QueuePartitions.validateEngineName(queue);
		ScriptCalls.requirePositive(ttl, "result ttl");
		this.ttls.put(queue, ttl);
	}

	/**
	 * Return how long a queue that retains no completed jobs keeps a result.
	 * @param queue the queue
	 * @return the time
	 */
	public Duration ttl(String queue) {
		Duration ttl = this.ttls.get(queue);
		return (ttl != null) ? ttl : this.defaultTtl;
	}

	/**
	 * Check a serialized result against the size cap, before anything is written.
	 * @param queue the queue
	 * @param id the job id
	 * @param result the result as the payload converter wrote it
	 * @throws ResultTooLargeException if it is over the cap
	 */
	public void check(String queue, JobId id, String result) {
		long limit = this.maxBytes;
		// a UTF-8 string is at most 3 bytes per char: count only when it may be over
		if ((long) result.length() * 3 > limit) {
			long size = result.getBytes(StandardCharsets.UTF_8).length;
			if (size > limit) {
				throw new ResultTooLargeException(queue, id, size, limit);
			}
		}
	}

	/**
	 * Read a job's stored result: from its key (a queue without retention), else from its
	 * retained row.
	 * @param queue the queue
	 * @param id the job id
	 * @return the result as the payload converter wrote it, or {@code null} when none is
	 * stored (the job has not completed, returned nothing, or its result expired or was
	 * trimmed with its row)
	 */
	public @Nullable String read(String queue, JobId id) {
		Assert.notNull(id, "'id' must not be null");
		QueueKeys keys = this.state.keys(queue);
		String kept = this.template.opsForValue().get(keys.result(id));
		if (kept != null) {
			return kept;
		}
		Object retained = this.template.opsForHash().get(keys.row(id), "result");
		return (retained != null) ? retained.toString() : null;
	}

}
