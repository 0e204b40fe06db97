package io.echomq.chaos.worker;

import java.time.Duration;
import java.util.List;

import io.echomq.listener.BackoffPolicy;
import io.echomq.listener.JobEventListener;

/**
 * How a {@link ChaosWorker} consumes: the listener defaults, the scheduler ticks and the
 * shutdown drain, with short leases and intervals so that faults resolve within a test.
 *
 * @param prefix the key prefix
 * @param concurrency handlers at once per queue
 * @param lease the lease of a claim
 * @param idleWait the longest an idle poller blocks on its wake list
 * @param reapInterval the delay between reap ticks
 * @param promoteInterval the delay between promote ticks
 * @param shutdownTimeout how long a stop waits for in-flight handlers ({@code 0} stops
 * without draining: unfinished jobs are released at once)
 * @param backoff the retry backoff
 * @param eventListeners told about what the containers and the scheduler do
 * @author EchoMQ
 */
public record WorkerSettings(String prefix, int concurrency, Duration lease, Duration idleWait, Duration reapInterval,
		Duration promoteInterval, Duration shutdownTimeout, BackoffPolicy backoff,
		List<JobEventListener> eventListeners) {

	/**
	 * Copy the listeners.
	 * @param prefix the key prefix
	 * @param concurrency handlers at once
	 * @param lease the lease
	 * @param idleWait the idle wait
	 * @param reapInterval the reap delay
	 * @param promoteInterval the promote delay
	 * @param shutdownTimeout the drain timeout
	 * @param backoff the backoff
	 * @param eventListeners the event listeners
	 */
	public WorkerSettings {
		eventListeners = List.copyOf(eventListeners);
	}

	/**
	 * Return settings for chaos runs: concurrency 8, a 2 s lease, reaping every 250 ms, a
	 * 2 s drain and a 50 ms backoff doubling to 500 ms.
	 * @param prefix the key prefix
	 * @return the settings
	 */
	public static WorkerSettings of(String prefix) {
		return new WorkerSettings(prefix, 8, Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(250),
				Duration.ofMillis(50), Duration.ofSeconds(2),
				new BackoffPolicy(Duration.ofMillis(50), 2.0, Duration.ofMillis(500), 0.2), List.of());
	}

	/**
	 * Return a copy with another concurrency.
	 * @param concurrency handlers at once
	 * @return the new settings
	 */
	public WorkerSettings withConcurrency(int concurrency) {
		return new WorkerSettings(this.prefix, concurrency, this.lease, this.idleWait, this.reapInterval,
				this.promoteInterval, this.shutdownTimeout, this.backoff, this.eventListeners);
	}

	/**
	 * Return a copy with another lease.
	 * @param lease the lease
	 * @return the new settings
	 */
	public WorkerSettings withLease(Duration lease) {
		return new WorkerSettings(this.prefix, this.concurrency, lease, this.idleWait, this.reapInterval,
				this.promoteInterval, this.shutdownTimeout, this.backoff, this.eventListeners);
	}

	/**
	 * Return a copy with another drain timeout.
	 * @param shutdownTimeout the drain timeout, {@code 0} for none
	 * @return the new settings
	 */
	public WorkerSettings withShutdownTimeout(Duration shutdownTimeout) {
		return new WorkerSettings(this.prefix, this.concurrency, this.lease, this.idleWait, this.reapInterval,
				this.promoteInterval, shutdownTimeout, this.backoff, this.eventListeners);
	}

	/**
	 * Return a copy with other event listeners.
	 * @param eventListeners the listeners
	 * @return the new settings
	 */
	public WorkerSettings withEventListeners(JobEventListener... eventListeners) {
		return new WorkerSettings(this.prefix, this.concurrency, this.lease, this.idleWait, this.reapInterval,
				this.promoteInterval, this.shutdownTimeout, this.backoff, List.of(eventListeners));
	}

}
