package io.echomq.events;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.core.EchoMqNode;
import io.echomq.core.internal.Script;
import io.echomq.support.internal.ErrorText;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;

/**
 * Reads one queue's event stream for one {@link JobEventStreamListener}, on a thread of
 * its own, through a consumer group of the stream: its own pending entries first after a
 * restart, then new entries as they come; each entry acknowledged ({@code XACK}) once
 * handled.
 * <p>
 * <b>Copies of one listener.</b> Each copy of the application (a web node and a worker
 * running the same jar) reads as a consumer of its own, named by the copy's instance
 * ({@link io.echomq.core.EchoMqNode#name() the node name} by default). By default the
 * group is named by the listener's {@link JobEventStreamListener#id() id}, so the copies
 * are competing consumers: each event goes to one of them. A listener that
 * {@linkplain JobEventStreamListener#broadcast() broadcasts} has a group per instance,
 * {@code <id> <instance>}, created at the end of the stream: each copy hears every event
 * written after it first joined.
 * <p>
 * <b>Gaps, exactly.</b> Each read runs in one script ({@code events_read.lua}) that reads
 * the group's last-delivered id and then the entries, with nothing in between. The stream
 * numbers its entries 1, 2, 3, ... with no holes, and is trimmed only from its start:
 * when the first entry a read returns is not the one after the group's last-delivered id,
 * the entries between were trimmed before any consumer of the group got them, and that
 * count is the gap (logged at WARN, counted, and reported to the listener). Entries
 * another consumer of the group took moved the last-delivered id on, so they are never
 * counted. A group that was never delivered an entry (last-delivered {@code 0-0}) counts
 * no gap: it hears what the stream holds when it starts. An entry of this consumer's own
 * pending list that the stream trimmed before it was acknowledged (read again after a
 * restart) comes back with no fields: it is counted as a gap of its own and acknowledged.
 * <p>
 * A failed read (Redis unreachable) is logged once per attempt, tried again after a wait
 * that doubles (1 s to 30 s by default), and the first read that succeeds after it is
 * logged at INFO.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class JobEventStreamReader implements Runnable {

	private static final Log logger = LogFactory.getLog(JobEventStreamReader.class);

	private static final int BATCH = 100;

	private static final Duration BLOCK = Duration.ofSeconds(1);

	private static final String NEW = ">";

	private static final String PENDING = "0";

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> READ = RedisScript.of(Script.load("events_read").body(), List.class);

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> CLAIM = RedisScript.of(Script.load("events_claim").body(), List.class);

	/**
	 * How long an entry another consumer of the group took must have waited
	 * unacknowledged before this reader takes it over.
	 */
	public static final Duration DEFAULT_CLAIM_IDLE = Duration.ofMinutes(1);

	/** The first wait before trying again after a failed read. */
	public static final Duration DEFAULT_RETRY_FIRST = Duration.ofSeconds(1);

	/** The longest wait before trying again: the wait doubles up to it. */
	public static final Duration DEFAULT_RETRY_MAX = Duration.ofSeconds(30);

	private final StringRedisTemplate template;

	private final String key;

	private final JobEventStreamListener listener;

	private final JobEventStreamCounters counters;

	private final String group;

	private final String consumer;

	private final String stream;

	private final Object delivery;

	private final CountDownLatch stopped = new CountDownLatch(1);

	private volatile boolean running = true;

	private Duration retryFirst = DEFAULT_RETRY_FIRST;

	private Duration retryMax = DEFAULT_RETRY_MAX;

	private volatile long last = -1;

	private Duration claimIdle = DEFAULT_CLAIM_IDLE;

	private long claimAt;

	/**
	 * Create a reader, for the instance {@link EchoMqNode#local(String)} names.
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
	 * queue's), for the instance {@link EchoMqNode#local(String)} names: the readers of a
	 * listener share {@code delivery}, so that it hears one event at a time.
	 * @param template the template to read with
	 * @param key the stream key
	 * @param listener the listener
	 * @param counters told what the listeners read and missed
	 * @param stream the queue (or partition) the stream belongs to, named in gaps
	 * @param delivery the lock the readers of the listener deliver under
	 */
	public JobEventStreamReader(StringRedisTemplate template, String key, JobEventStreamListener listener,
			JobEventStreamCounters counters, String stream, Object delivery) {
		this(template, key, listener, counters, stream, delivery, EchoMqNode.local(null).name());
	}

	/**
	 * Create a reader of one stream of several that one listener hears, for one copy of
	 * the application: the readers of a listener share {@code delivery}, so that it hears
	 * one event at a time.
	 * @param template the template to read with
	 * @param key the stream key
	 * @param listener the listener
	 * @param counters told what the listeners read and missed
	 * @param stream the queue (or partition) the stream belongs to, named in gaps
	 * @param delivery the lock the readers of the listener deliver under
	 * @param instance the copy of the application: the consumer's name in the group (and
	 * part of the group's name for a listener that broadcasts); distinct per copy
	 * @since 0.5.0
	 */
	public JobEventStreamReader(StringRedisTemplate template, String key, JobEventStreamListener listener,
			JobEventStreamCounters counters, String stream, Object delivery, String instance) {
		Assert.hasText(listener.id(), "a job event listener needs an id");
		Assert.hasText(instance, "'instance' must not be empty");
		this.template = template;
		this.key = key;
		this.listener = listener;
		this.counters = counters;
		this.group = groupName(listener, instance);
		this.consumer = instance;
		this.stream = stream;
		this.delivery = delivery;
	}

	/**
	 * Return the consumer group a listener reads through on one instance: its id, or
	 * {@code <id> <instance>} for a listener that
	 * {@linkplain JobEventStreamListener#broadcast() broadcasts}.
	 * @param listener the listener
	 * @param instance the instance
	 * @return the group name
	 * @since 0.5.0
	 */
	public static String groupName(JobEventStreamListener listener, String instance) {
		return listener.broadcast() ? listener.id() + " " + instance : listener.id();
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
	 * Set how long an entry another consumer of the group took (a copy of the application
	 * that is gone, or that stopped under another node name) must have waited
	 * unacknowledged before this reader takes it over and delivers it, by default
	 * {@link #DEFAULT_CLAIM_IDLE}. The reader looks when it joins and then, while it has
	 * nothing new to read, once per that time. Set before the reader runs.
	 * @param idle the time
	 * @since 0.5.0
	 */
	public void setClaimIdle(Duration idle) {
		Assert.isTrue(!idle.isNegative() && !idle.isZero(), "'idle' must be positive");
		this.claimIdle = idle;
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
					this.claimAt = System.nanoTime();
				}
				if (System.nanoTime() - this.claimAt >= 0) {
					claim();
					while (this.running && handle(read(PENDING), false) > 0) {
						// own pending entries first: delivered before a restart (or taken
						// over from a gone copy), never acknowledged
					}
					this.claimAt = System.nanoTime() + this.claimIdle.toNanos();
				}
				Read read = read(NEW);
				if (handle(read, true) == 0 && this.running) {
					await(read.delivered());
				}
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
	 * Join the listener's consumer group: create it (and the stream) when it does not
	 * exist, at the start of the stream, or at its end for a listener that broadcasts.
	 */
	private void join() {
		ReadOffset start = this.listener.broadcast() ? ReadOffset.latest() : ReadOffset.from("0-0");
		try {
			this.template.execute((RedisCallback<String>) (connection) -> connection.streamCommands()
				.xGroupCreate(this.key.getBytes(StandardCharsets.UTF_8), this.group, start, true));
		}
		catch (RuntimeException ex) {
			if (!causedBy(ex, "BUSYGROUP")) {
				throw ex;
			}
		}
	}

	/**
	 * Take over the entries other consumers of the group left unacknowledged for longer
	 * than the claim idle time; those the stream no longer holds (and the server dropped)
	 * count as a gap.
	 */
	private void claim() {
		List<?> reply = this.template.execute(CLAIM, List.of(this.key), this.group, this.consumer,
				String.valueOf(this.claimIdle.toMillis()), String.valueOf(BATCH));
		if (reply == null || reply.size() < 2) {
			return;
		}
		List<Entry> dropped = new ArrayList<>();
		for (Object id : reply.subList(1, reply.size())) {
			dropped.add(new Entry(String.valueOf(id), null));
		}
		dropped.sort(Comparator.comparingLong((entry) -> JobEvent.sequence(entry.id())));
		handle(new Read("0-0", dropped), false);
	}

	private Read read(String which) {
		List<?> reply = this.template.execute(READ, List.of(this.key), this.group, this.consumer, String.valueOf(BATCH),
				which);
		Assert.state(reply != null && !reply.isEmpty(), "no reply from events_read");
		String delivered = String.valueOf(reply.get(0));
		List<Entry> entries = new ArrayList<>();
		int at = 1;
		while (at < reply.size()) {
			String id = String.valueOf(reply.get(at));
			int fields = Integer.parseInt(String.valueOf(reply.get(at + 1)));
			at += 2;
			if (fields < 0) {
				entries.add(new Entry(id, null));
				continue;
			}
			Map<String, String> body = new LinkedHashMap<>();
			for (int i = 0; i < fields; i++) {
				body.put(String.valueOf(reply.get(at)), String.valueOf(reply.get(at + 1)));
				at += 2;
			}
			entries.add(new Entry(id, body));
		}
		return new Read(delivered, entries);
	}

	/**
	 * Wait (at most about a second) until the stream holds an entry after the group's
	 * last-delivered id; the entry is read by the next {@link #read(String)}, by this
	 * consumer or another of the group.
	 */
	private void await(String delivered) {
		this.template.opsForStream()
			.read(StreamReadOptions.empty().count(1).block(BLOCK),
					StreamOffset.create(this.key, ReadOffset.from(delivered)));
	}

	private int handle(Read read, boolean fresh) {
		synchronized (this.delivery) {
			return handleInOrder(read, fresh);
		}
	}

	private int handleInOrder(Read read, boolean fresh) {
		List<Entry> entries = read.entries();
		if (fresh && !entries.isEmpty()) {
			long delivered = JobEvent.sequence(read.delivered());
			long first = JobEvent.sequence(entries.get(0).id());
			if (delivered > 0 && first > delivered + 1) {
				gap(delivered, first);
			}
		}
		long trimmedFrom = -1;
		long trimmedTo = -1;
		int events = 0;
		for (Entry entry : entries) {
			long sequence = JobEvent.sequence(entry.id());
			if (entry.fields() == null) {
				if (trimmedFrom >= 0 && sequence != trimmedTo + 1) {
					gap(trimmedFrom - 1, trimmedTo + 1);
					trimmedFrom = -1;
				}
				trimmedFrom = (trimmedFrom < 0) ? sequence : trimmedFrom;
				trimmedTo = sequence;
			}
			else {
				if (trimmedFrom >= 0) {
					gap(trimmedFrom - 1, trimmedTo + 1);
					trimmedFrom = -1;
				}
				if (sequence > this.last) {
					this.last = sequence;
				}
				deliver(entry.id(), entry.fields());
				events++;
			}
			this.template.opsForStream().acknowledge(this.key, this.group, entry.id());
		}
		if (trimmedFrom >= 0) {
			gap(trimmedFrom - 1, trimmedTo + 1);
		}
		if (events > 0) {
			this.counters.onRead(this.listener, events);
		}
		return entries.size();
	}

	private void gap(long after, long resumedAt) {
		JobEventGap gap = new JobEventGap(this.stream, this.listener.id(), after, resumedAt, resumedAt - after - 1);
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

	private void deliver(String entryId, Map<String, String> fields) {
		try {
			this.listener.onEvent(JobEvent.of(this.listener.queue(), entryId, fields));
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
		return "JobEventStreamReader[" + this.group + "/" + this.consumer + " on " + this.key + "]";
	}

	/**
	 * One read: the group's last-delivered id just before it, and the entries it returned
	 * in stream order.
	 */
	private record Read(String delivered, List<Entry> entries) {
	}

	/**
	 * One entry read: {@code fields} is {@code null} for a pending entry the stream no
	 * longer holds.
	 */
	private record Entry(String id, @Nullable Map<String, String> fields) {
	}

}
