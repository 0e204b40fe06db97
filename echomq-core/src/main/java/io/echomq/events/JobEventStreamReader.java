package io.echomq.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.support.internal.ErrorText;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamInfo;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Reads one queue's event stream for one {@link JobEventStreamListener}, on a thread of
 * its own: through the consumer group named by the listener's id (created at the start of
 * the stream the first time), its own pending entries first after a restart, then new
 * entries as they come; each entry acknowledged ({@code XACK}) once handled. An entry's
 * id is its sequence number, so a jump in the sequence is a gap (entries trimmed before
 * they were read): logged at WARN, counted, and reported to the listener. A failed read
 * (Redis unreachable) is logged once per attempt, tried again after a wait that doubles
 * (1 s to 30 s by default), and the first read that succeeds after it is logged at INFO.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class JobEventStreamReader implements Runnable {

	private static final Log logger = LogFactory.getLog(JobEventStreamReader.class);

	private static final int BATCH = 100;

	private static final Duration BLOCK = Duration.ofSeconds(1);

	/** The first wait before trying again after a failed read. */
	public static final Duration DEFAULT_RETRY_FIRST = Duration.ofSeconds(1);

	/** The longest wait before trying again: the wait doubles up to it. */
	public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(30);

	private final StringRedisTemplate template;

	private final String key;

	private final JobEventStreamListener listener;

	private final JobEventStreamCounters counters;

	private final Consumer consumer;

	private final String stream;

	private final Object delivery;

	private final CountDownLatch stopped = new CountDownLatch(1);

	private volatile boolean running = true;

	private Duration retryFirst = DEFAULT_RETRY_FIRST;

	private Duration retryMax = DEFAULT_RETRY_MAX;

	private volatile long last = -1;

	/**
	 * Create a reader.
	 * @param template the template to read with
	 * @param key the queue's event stream key
	 * @param listener the listener
	 * @param counters told what the listeners read and missed
	 */
	public JobEventStreamReader(StringRedisTemplate template, String key, JobEventStreamListener listener,
			JobEventStreamCounters counters) {
		this(template, key, listener, counters, listener.queue(), new Object());
	}

	/**
	 * Create a reader of one stream of several that one listener hears (a partitioned
	 * queue's): the readers of a listener share {@code delivery}, so that it hears one
	 * event at a time.
	 * @param template the template to read with
	 * @param key the stream key
	 * @param listener the listener
	 * @param counters told what the listeners read and missed
	 * @param stream the queue (or partition) the stream belongs to, named in gaps
	 * @param delivery the lock the readers of the listener deliver under
	 */
	public JobEventStreamReader(StringRedisTemplate template, String key, JobEventStreamListener listener,
			JobEventStreamCounters counters, String stream, Object delivery) {
		Assert.hasText(listener.id(), "a job event listener needs an id");
		this.template = template;
		this.key = key;
		this.listener = listener;
		this.counters = counters;
		this.consumer = Consumer.from(listener.id(), listener.id());
		this.stream = stream;
		this.delivery = delivery;
	}

	/**
	 * Set how long the reader waits before it tries again after a failed read (Redis
	 * unreachable): {@code first} after the first failure, doubling up to {@code max}, by
	 * default {@link #DEFAULT_RETRY_FIRST} up to {@link #DEFAULT_RETRY_MAX}. Each failed
	 * attempt logs one warning, and the first read that succeeds after them one info
	 * line. Set before the reader runs.
	 * @param first the first wait
	 * @param max the longest wait
	 * @since 0.4.0
	 */
	public void setRetryBackoff(Duration first, Duration max) {
		Assert.isTrue(!first.isNegative() && !first.isZero(), "'first' must be positive");
		Assert.isTrue(max.compareTo(first) >= 0, "'max' must not be shorter than 'first'");
		this.retryFirst = first;
		this.retryMax = max;
	}

	/**
	 * Ask the reader to stop after the read in progress (at most about a second); a wait
	 * before trying again ends at once.
	 */
	public void stop() {
		this.running = false;
		this.stopped.countDown();
	}

	@Override
	public void run() {
		boolean joined = false;
		int failures = 0;
		Duration retry = this.retryFirst;
		while (this.running) {
			try {
				if (!joined) {
					join();
					joined = true;
					while (this.running && handle(read(ReadOffset.from("0"), false)) > 0) {
						// own pending entries first: delivered before a restart, never
						// acknowledged
					}
				}
				handle(read(ReadOffset.lastConsumed(), true));
				if (failures > 0) {
					logger.info("Reading the job events of " + this.stream + " for listener '" + this.listener.id()
							+ "' again after " + failures + " failed attempts");
					failures = 0;
					retry = this.retryFirst;
				}
			}
			catch (RuntimeException ex) {
				if (!this.running) {
					return;
				}
				joined = joined && !causedBy(ex, "NOGROUP");
				failures++;
				logger.warn("Could not read the job events of " + this.stream + " for listener '" + this.listener.id()
						+ "' (" + ErrorText.of(ex) + "); trying again in " + retry.toMillis() + " ms");
				logger.debug("Failed read of the job events of " + this.stream, ex);
				pause(retry);
				retry = (retry.multipliedBy(2).compareTo(this.retryMax) > 0) ? this.retryMax : retry.multipliedBy(2);
			}
		}
	}

	/**
	 * Join the listener's consumer group: create it at the start of the stream (and the
	 * stream) when it does not exist, else learn the last entry it was given.
	 */
	private void join() {
		try {
			this.template.execute((RedisCallback<String>) (connection) -> connection.streamCommands()
				.xGroupCreate(this.key.getBytes(StandardCharsets.UTF_8), this.listener.id(), ReadOffset.from("0-0"),
						true));
			this.last = -1;
		}
		catch (RuntimeException ex) {
			if (!causedBy(ex, "BUSYGROUP")) {
				throw ex;
			}
			this.last = lastDelivered();
		}
	}

	private long lastDelivered() {
		StreamInfo.XInfoGroups groups = this.template.opsForStream().groups(this.key);
		for (StreamInfo.XInfoGroup group : groups) {
			if (this.listener.id().equals(group.groupName())) {
				return JobEvent.sequence(group.lastDeliveredId());
			}
		}
		return -1;
	}

	private List<MapRecord<String, Object, Object>> read(ReadOffset offset, boolean block) {
		StreamReadOptions options = StreamReadOptions.empty().count(BATCH);
		if (block) {
			options = options.block(BLOCK);
		}
		List<MapRecord<String, Object, Object>> records = this.template.opsForStream()
			.read(this.consumer, options, StreamOffset.create(this.key, offset));
		return (records != null) ? records : List.of();
	}

	private int handle(List<MapRecord<String, Object, Object>> records) {
		synchronized (this.delivery) {
			return handleInOrder(records);
		}
	}

	private int handleInOrder(List<MapRecord<String, Object, Object>> records) {
		for (MapRecord<String, Object, Object> record : records) {
			String entryId = record.getId().getValue();
			long sequence = JobEvent.sequence(entryId);
			if (this.last >= 0 && sequence > this.last + 1) {
				gap(sequence);
			}
			if (sequence > this.last) {
				this.last = sequence;
			}
			deliver(entryId, record);
			this.template.opsForStream().acknowledge(this.key, this.listener.id(), record.getId());
		}
		if (!records.isEmpty()) {
			this.counters.onRead(this.listener, records.size());
		}
		return records.size();
	}

	private void gap(long sequence) {
		JobEventGap gap = new JobEventGap(this.stream, this.listener.id(), this.last, sequence,
				sequence - this.last - 1);
		logger.warn("Job event listener '" + gap.listenerId() + "' missed " + gap.missed() + " events of " + gap.queue()
				+ " (after " + gap.after() + ", resumed at " + gap.resumedAt()
				+ "): the stream was trimmed to its max-length before they were read");
		this.counters.onGap(this.listener, gap.missed());
		try {
			this.listener.onGap(gap);
		}
		catch (RuntimeException ex) {
			logger.error("Job event listener '" + gap.listenerId() + "' failed on a gap", ex);
		}
	}

	private void deliver(String entryId, MapRecord<String, Object, Object> record) {
		try {
			this.listener.onEvent(JobEvent.of(this.listener.queue(), entryId, record.getValue()));
		}
		catch (RuntimeException ex) {
			logger.error("Job event listener '" + this.listener.id() + "' failed on event " + entryId + " of "
					+ this.listener.queue() + "; it is acknowledged and not delivered again", ex);
		}
	}

	private static boolean causedBy(Throwable ex, String text) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (String.valueOf(cause.getMessage()).contains(text)) {
				return true;
			}
		}
		return false;
	}

	private void pause(Duration wait) {
		try {
			this.stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.running = false;
		}
	}

	/**
	 * Return the sequence number of the last event read, or -1 before the first.
	 * @return the sequence number
	 */
	public long lastSequence() {
		return this.last;
	}

	@Override
	public String toString() {
		return "JobEventStreamReader[" + this.listener.id() + " on " + this.key + "]";
	}

}
