package io.echomq.core.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.util.Assert;

/**
 * Remembers which partitions just failed with an {@linkplain ServerFailures unavailable}
 * server, so that work that may go to any partition passes them over for a while rather
 * than wait out a dead master's command timeout again. A partition is down for the
 * backoff after its first failure, twice that after a second one in a row, up to the
 * maximum; one success clears it. Thread-safe.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class PartitionOutages {

	private final long backoffNanos;

	private final long maxBackoffNanos;

	private final Map<String, Outage> outages = new ConcurrentHashMap<>();

	/**
	 * Create an instance.
	 * @param backoff how long a partition is passed over after its first failure
	 * @param maxBackoff the longest it is passed over after failures in a row
	 */
	public PartitionOutages(Duration backoff, Duration maxBackoff) {
		Assert.isTrue(!backoff.isNegative() && !backoff.isZero(), "'backoff' must be positive");
		Assert.isTrue(maxBackoff.compareTo(backoff) >= 0, "'maxBackoff' must not be below 'backoff'");
		this.backoffNanos = backoff.toNanos();
		this.maxBackoffNanos = maxBackoff.toNanos();
	}

	/**
	 * Return whether a partition is passed over now.
	 * @param partition the engine queue name of the partition
	 * @return whether it failed within its backoff
	 */
	public boolean isDown(String partition) {
		Outage outage = this.outages.get(partition);
		return outage != null && outage.until - System.nanoTime() > 0;
	}

	/**
	 * Record that a call to a partition failed because its server is unavailable.
	 * @param partition the engine queue name of the partition
	 */
	public void failed(String partition) {
		this.outages.compute(partition, (name, previous) -> {
			long backoff = (previous == null) ? this.backoffNanos
					: Math.min(this.maxBackoffNanos, previous.backoff * 2);
			return new Outage(System.nanoTime() + backoff, backoff);
		});
	}

	/**
	 * Record that a call to a partition succeeded.
	 * @param partition the engine queue name of the partition
	 */
	public void succeeded(String partition) {
		if (!this.outages.isEmpty()) {
			this.outages.remove(partition);
		}
	}

	private record Outage(long until, long backoff) {

	}

}
