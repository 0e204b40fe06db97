package io.echomq.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.echomq.core.EchoMqNode;
import io.echomq.support.internal.KeepAlive;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.Assert;

/**
 * Runs a {@link JobEventStreamReader} per {@link JobEventStreamListener} bean, each on a
 * daemon thread of its own, from the application's start to its stop (a new reader on
 * each start, which resumes where the listener's consumer group stands). While it runs it
 * holds a non-daemon thread ({@value #KEEP_ALIVE_THREAD_NAME}), as the listener registry
 * does: an application whose only EchoMQ part is an event listener (no web server) keeps
 * running until it is stopped.
 * <p>
 * A partitioned queue has one stream per partition, on the partition's slot: the listener
 * gets one reader per partition, each with the listener's consumer group on its
 * partition's stream, and the readers hand it their events one at a time. A job lives in
 * one partition, so its events arrive in order; events of different partitions
 * interleave.
 * <p>
 * Each copy of the application reads as a consumer named by its instance
 * ({@link #setInstance(String)}): copies of one listener compete for its events, or each
 * hears all of them when the listener {@linkplain JobEventStreamListener#broadcast()
 * broadcasts}.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class JobEventStreamContainer implements SmartLifecycle {

	/** Name of the non-daemon thread that keeps the JVM alive while the readers run. */
	public static final String KEEP_ALIVE_THREAD_NAME = "echomq-events-keep-alive";

	private final StringRedisTemplate template;

	private final Function<String, String> streamKey;

	private final List<JobEventStreamListener> listeners;

	private final JobEventStreamCounters counters;

	private final List<JobEventStreamReader> readers = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private Function<String, List<String>> partitions = List::of;

	private String instance = EchoMqNode.local(null).name();

	private Duration retryFirst = JobEventStreamReader.DEFAULT_RETRY_FIRST;

	private Duration retryMax = JobEventStreamReader.DEFAULT_RETRY_MAX;

	private Duration claimIdle = JobEventStreamReader.DEFAULT_CLAIM_IDLE;

	private @Nullable KeepAlive keepAlive;

	private volatile boolean running;

	/**
	 * Create a container.
	 * @param template the template to read with
	 * @param streamKey the event stream key of a queue
	 * @param listeners the listeners
	 * @param counters told what the listeners read and missed
	 */
	public JobEventStreamContainer(StringRedisTemplate template, Function<String, String> streamKey,
			List<JobEventStreamListener> listeners, JobEventStreamCounters counters) {
		this.template = template;
		this.streamKey = streamKey;
		this.listeners = List.copyOf(listeners);
		this.counters = counters;
	}

	/**
	 * Set the partitions of each queue (a queue that is not partitioned is its own one
	 * partition, the default).
	 * @param partitions the engine names of a queue's partitions, by its logical name
	 */
	public synchronized void setPartitions(Function<String, List<String>> partitions) {
		this.partitions = partitions;
	}

	/**
	 * Set the name of this copy of the application: the consumer name of its readers in
	 * each listener's group, and part of the group's name for a listener that
	 * {@linkplain JobEventStreamListener#broadcast() broadcasts}. Distinct per copy; by
	 * default {@link EchoMqNode#local(String)}'s name. Applies from the next start.
	 * @param instance the instance name
	 * @since 0.5.0
	 */
	public synchronized void setInstance(String instance) {
		Assert.hasText(instance, "'instance' must not be empty");
		this.instance = instance;
	}

	/**
	 * Set how long a reader waits before it tries again after a failed read (Redis
	 * unreachable), see {@link JobEventStreamReader#setRetryBackoff(Duration, Duration)};
	 * applies from the next start.
	 * @param first the first wait
	 * @param max the longest wait
	 * @since 0.4.0
	 */
	public synchronized void setRetryBackoff(Duration first, Duration max) {
		Assert.isTrue(!first.isNegative() && !first.isZero(), "'first' must be positive");
		Assert.isTrue(max.compareTo(first) >= 0, "'max' must not be shorter than 'first'");
		this.retryFirst = first;
		this.retryMax = max;
	}

	/**
	 * Set how long an entry another copy took must have waited unacknowledged before a
	 * reader takes it over, see {@link JobEventStreamReader#setClaimIdle(Duration)};
	 * applies from the next start.
	 * @param idle the time
	 * @since 0.5.0
	 */
	public synchronized void setClaimIdle(Duration idle) {
		Assert.isTrue(!idle.isNegative() && !idle.isZero(), "'idle' must be positive");
		this.claimIdle = idle;
	}

	@Override
	public synchronized void start() {
		if (this.running) {
			return;
		}
		this.readers.clear();
		for (JobEventStreamListener listener : this.listeners) {
			List<String> names = this.partitions.apply(listener.queue());
			Object delivery = new Object();
			for (String name : names) {
				JobEventStreamReader reader = new JobEventStreamReader(this.template, this.streamKey.apply(name),
						listener, this.counters, (names.size() > 1) ? name : listener.queue(), delivery, this.instance);
				reader.setRetryBackoff(this.retryFirst, this.retryMax);
				reader.setClaimIdle(this.claimIdle);
				this.readers.add(reader);
				Thread thread = new Thread(reader, "echomq-events-" + this.threads.size());
				thread.setDaemon(true);
				thread.start();
				this.threads.add(thread);
			}
		}
		if (!this.threads.isEmpty() && this.keepAlive == null) {
			this.keepAlive = KeepAlive.start(KEEP_ALIVE_THREAD_NAME);
		}
		this.running = true;
	}

	@Override
	public synchronized void stop() {
		this.readers.forEach(JobEventStreamReader::stop);
		for (Thread thread : this.threads) {
			try {
				thread.join(3000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		this.threads.clear();
		if (this.keepAlive != null) {
			this.keepAlive.end();
			this.keepAlive = null;
		}
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Return the readers, one per listener and partition.
	 * @return the readers
	 */
	public synchronized List<JobEventStreamReader> getReaders() {
		return List.copyOf(this.readers);
	}

}
