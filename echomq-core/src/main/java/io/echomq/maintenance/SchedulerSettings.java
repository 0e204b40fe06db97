package io.echomq.maintenance;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * Intervals and batch size of the reap and promote ticks.
 *
 * @param reapInterval the delay between reap ticks
 * @param promoteInterval the delay between promote ticks
 * @param batchSize the most ids one script call moves per queue
 * @author EchoMQ
 * @since 0.1.0
 */
public record SchedulerSettings(Duration reapInterval, Duration promoteInterval, int batchSize) {

	/**
	 * Validate the settings.
	 * @param reapInterval the reap delay
	 * @param promoteInterval the promote delay
	 * @param batchSize the batch size
	 */
	public SchedulerSettings {
		Assert.isTrue(reapInterval != null && reapInterval.toMillis() > 0,
				() -> "reapInterval must be at least 1ms, was " + reapInterval);
		Assert.isTrue(promoteInterval != null && promoteInterval.toMillis() > 0,
				() -> "promoteInterval must be at least 1ms, was " + promoteInterval);
		Assert.isTrue(batchSize > 0, () -> "batchSize must be positive, was " + batchSize);
	}

	/**
	 * Return the built-in settings: reap every second, promote every 100 ms, 500 ids per
	 * call.
	 * @return the defaults
	 */
	public static SchedulerSettings defaults() {
		return new SchedulerSettings(Duration.ofSeconds(1), Duration.ofMillis(100), 500);
	}

}
