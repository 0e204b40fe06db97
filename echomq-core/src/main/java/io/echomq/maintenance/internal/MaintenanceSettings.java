package io.echomq.maintenance.internal;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * Timing and batch size of the reap and promote ticks. Each tick sleeps until the
 * earliest lease deadline (reap) or run-at (promote) it knows of, or until a listener
 * signals a change; {@code idleCheck} bounds how long it goes without reading a queue.
 *
 * @param reapInterval how soon a reap pass runs again when an expired lease stayed where
 * it was (and the reap tick's health bound)
 * @param promoteInterval how soon a promote pass runs again when a due job stayed where
 * it was (and the promote tick's health bound)
 * @param batchSize the most ids one script call moves per queue
 * @param idleCheck the longest a queue goes without a reap and a promote read: the safety
 * net for a lost wake-up, for leases other nodes claimed after the last read, and for
 * queues that no listener of any node serves
 * @author EchoMQ
 * @since 0.1.0
 */
public record MaintenanceSettings(Duration reapInterval, Duration promoteInterval, int batchSize, Duration idleCheck) {

	/** The built-in idle check. */
	public static final Duration DEFAULT_IDLE_CHECK = Duration.ofSeconds(5);

	/**
	 * Validate the settings.
	 * @param reapInterval the reap retry delay
	 * @param promoteInterval the promote retry delay
	 * @param batchSize the batch size
	 * @param idleCheck the idle check
	 */
	public MaintenanceSettings {
		Assert.isTrue(reapInterval != null && reapInterval.toMillis() > 0,
				() -> "reapInterval must be at least 1ms, was " + reapInterval);
		Assert.isTrue(promoteInterval != null && promoteInterval.toMillis() > 0,
				() -> "promoteInterval must be at least 1ms, was " + promoteInterval);
		Assert.isTrue(batchSize > 0, () -> "batchSize must be positive, was " + batchSize);
		Assert.isTrue(idleCheck != null && idleCheck.toMillis() > 0,
				() -> "idleCheck must be at least 1ms, was " + idleCheck);
	}

	/**
	 * Create settings with the default idle check.
	 * @param reapInterval the reap retry delay
	 * @param promoteInterval the promote retry delay
	 * @param batchSize the batch size
	 */
	public MaintenanceSettings(Duration reapInterval, Duration promoteInterval, int batchSize) {
		this(reapInterval, promoteInterval, batchSize, DEFAULT_IDLE_CHECK);
	}

	/**
	 * Return the built-in settings: retry reap after a second, promote after 100 ms, 500
	 * ids per call, an idle check every 5 seconds.
	 * @return the defaults
	 */
	public static MaintenanceSettings defaults() {
		return new MaintenanceSettings(Duration.ofSeconds(1), Duration.ofMillis(100), 500);
	}

	/**
	 * Return the longest a healthy reap tick goes without succeeding.
	 * @return the larger of the reap interval and the idle check
	 */
	public Duration reapBound() {
		return (this.reapInterval.compareTo(this.idleCheck) > 0) ? this.reapInterval : this.idleCheck;
	}

	/**
	 * Return the longest a healthy promote tick goes without succeeding.
	 * @return the larger of the promote interval and the idle check
	 */
	public Duration promoteBound() {
		return (this.promoteInterval.compareTo(this.idleCheck) > 0) ? this.promoteInterval : this.idleCheck;
	}

}
