package io.echomq.events;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs a {@link JobEventStreamReader} per {@link JobEventStreamListener} bean, each on a
 * daemon thread of its own, from the application's start to its stop (a new reader on
 * each start, which resumes where the listener's consumer group stands).
 * <p>
 * A partitioned queue has one stream per partition, on the partition's slot: the listener
 * gets one reader per partition, each with the listener's consumer group on its
 * partition's stream, and the readers hand it their events one at a time. A job lives in
 * one partition, so its events arrive in order; events of different partitions
 * interleave.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class JobEventStreamContainer implements SmartLifecycle {

	private final StringRedisTemplate template;

	private final Function<String, String> streamKey;

	private final List<JobEventStreamListener> listeners;

	private final JobEventStreamCounters counters;

	private final List<JobEventStreamReader> readers = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private Function<String, List<String>> partitions = List::of;

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
						listener, this.counters, (names.size() > 1) ? name : listener.queue(), delivery);
				this.readers.add(reader);
				Thread thread = new Thread(reader, "echomq-events-" + this.threads.size());
				thread.setDaemon(true);
				thread.start();
				this.threads.add(thread);
			}
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
